import type { SpellSetting } from '../model/setting-speller.js';
import { type ServiceAddress, serviceAddressAt } from '../util/service-address.js';
import { nonPublicHostReason } from './host.js';

/**
 * Static rules on the provider base address (contract, "What the service does" §6; DECISIONS.md, Addresses): the
 * base-url check and serve's registration judge by them. Pure, so every rule is unit-tested without a network.
 */

export interface AddressRules {
  /** A local self-test: http and loopback/private hosts are allowed (with a warning). */
  local: boolean;
  /** The service's own addresses (the embedded webhook receiver, the core), never a provider base address. */
  service?: readonly ServiceAddress[];
  /** How the advice names the `local` setting for the caller's users. */
  spell: SpellSetting;
}

/** A violated address rule: the text names the rule and the fix; the requirement is its contract id. */
export interface AddressProblem {
  text: string;
  requirement: 'BASE-URL-PUBLIC-HTTPS' | 'BASE-URL-NO-HEALTH-SUFFIX' | 'BASE-URL-NOT-CORE';
}

export interface AddressVerdict {
  problems: AddressProblem[];
  warnings: string[];
}

/** Every static problem of a base address; each names the rule and the fix. */
export function judgeBaseAddress(baseUrl: string, rules: AddressRules): AddressVerdict {
  const problems: AddressProblem[] = [];
  const warnings: string[] = [];
  const publicHttps = (text: string) => problems.push({ text, requirement: 'BASE-URL-PUBLIC-HTTPS' });
  const local = rules.spell('local');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    publicHttps(`the base URL "${baseUrl}" is not an absolute URL; expected e.g. https://api.example.com/provider`);
    return { problems, warnings };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    publicHttps(`the base URL uses ${url.protocol.replace(':', '')}; expected https://`);
  } else if (url.protocol === 'http:') {
    if (rules.local)
      warnings.push(
        `the base URL uses http://; allowed by ${local}, but hosted certification needs a public HTTPS address`,
      );
    else
      publicHttps(
        `the base URL uses http://; a provider base address must be public HTTPS (use ${local} only for a local self-test)`,
      );
  }
  const hostReason = nonPublicHostReason(url.hostname);
  if (hostReason) {
    if (rules.local)
      warnings.push(`the host ${url.hostname} ${hostReason}; allowed by ${local}, but hosted callers cannot reach it`);
    else
      publicHttps(
        `the host ${url.hostname} ${hostReason}; hosted callers cannot reach localhost or private addresses, so the base address must be public (use ${local} only for a local self-test)`,
      );
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/health$/i.test(path)) {
    problems.push({
      text: `the base URL ends with /health; enter the API root (e.g. ${url.origin}${path.slice(0, -'/health'.length) || '/'}): the service appends /health and the other route paths itself`,
      requirement: 'BASE-URL-NO-HEALTH-SUFFIX',
    });
  }
  // Only the service's own address is refused, by the rule `serve`'s registration applies too; a provider's
  // base path under /api/v1 is allowed like any other.
  const own = serviceAddressAt(url, rules.service ?? []);
  if (own)
    problems.push({
      text: `the base URL points at ${own.what} (${own.host}:${own.port}); enter the provider backend's address`,
      requirement: 'BASE-URL-NOT-CORE',
    });
  if (url.search || url.hash)
    warnings.push(
      'the base URL carries a query string or fragment; route paths are appended to it, so it is usually a mistake',
    );
  return { problems, warnings };
}
