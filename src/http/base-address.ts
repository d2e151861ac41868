import type { SpellSetting } from '../model/setting-speller.js';
import { type ServiceAddress, serviceAddressAt } from '../util/service-address.js';
import { nonPublicHostReason } from './host.js';

/**
 * Static rules on the provider base address (contract, "What the service does" §6; DECISIONS.md, Addresses), each
 * written once here: the base-url check, serve's registration and the doctor render the findings in their own
 * words. Pure, so every rule is unit-tested without a network.
 */

export interface AddressRules {
  /** A local self-test: http and loopback/private hosts are allowed (with a warning). */
  local: boolean;
  /** The service's own addresses (the embedded webhook receiver, the core), never a provider base address. */
  service?: readonly ServiceAddress[];
  /** How the advice names the `local` setting for the caller's users. */
  spell: SpellSetting;
}

export type AddressRequirement = 'BASE-URL-PUBLIC-HTTPS' | 'BASE-URL-NO-HEALTH-SUFFIX' | 'BASE-URL-NOT-CORE';

/** Which rule a base address breaks. */
export type AddressRule =
  /** It parses as an absolute URL. */
  | 'absolute-url'
  /** Its scheme is http or https. */
  | 'web-scheme'
  /** Its scheme is https (http: allowed in a local self-test). */
  | 'https'
  /** Its host is public (loopback, private, .local …: allowed in a local self-test). */
  | 'public-host'
  /** Its path does not end with /health. */
  | 'no-health-suffix'
  /** It is not the service's own address. */
  | 'not-service'
  /** It carries no query string or fragment (advice only). */
  | 'no-query';

/** The part of the URL a rule is about. */
export type AddressPart = 'url' | 'scheme' | 'host' | 'path' | 'query';

/** One broken rule: which, where, how bad under the caller's rules, in the check's words, and the corrected URL. */
export interface AddressFinding {
  rule: AddressRule;
  part: AddressPart;
  severity: 'problem' | 'warning';
  /** The contract requirement it stands on (none for advice). */
  requirement?: AddressRequirement;
  /** What the base-url check and serve's registration say: the rule and the fix. */
  text: string;
}

export interface AddressVerdict {
  problems: AddressFinding[];
  warnings: AddressFinding[];
  /**
   * The base URL with every mechanical fix applied: https where http or another scheme is a problem, no /health
   * suffix, no trailing slash, query, fragment or user info. Undefined when the value is not a URL.
   */
  correctedBaseUrl?: string;
}

/** Every static problem of a base address; each names the rule and the fix. */
export function judgeBaseAddress(baseUrl: string, rules: AddressRules): AddressVerdict {
  const findings: AddressFinding[] = [];
  const local = rules.spell('local');
  const publicHttps = 'BASE-URL-PUBLIC-HTTPS';
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    findings.push({
      rule: 'absolute-url',
      part: 'url',
      severity: 'problem',
      requirement: publicHttps,
      text: `the base URL "${baseUrl}" is not an absolute URL; expected e.g. https://api.example.com/provider`,
    });
    return verdictOf(findings);
  }
  const path = url.pathname.replace(/\/+$/, '');
  const apiRoot = path.replace(/\/health$/i, '');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    findings.push({
      rule: 'web-scheme',
      part: 'scheme',
      severity: 'problem',
      requirement: publicHttps,
      text: `the base URL uses ${url.protocol.replace(':', '')}; expected https://`,
    });
  } else if (url.protocol === 'http:') {
    findings.push({
      rule: 'https',
      part: 'scheme',
      severity: rules.local ? 'warning' : 'problem',
      requirement: publicHttps,
      text: rules.local
        ? `the base URL uses http://; allowed by ${local}, but hosted certification needs a public HTTPS address`
        : `the base URL uses http://; a provider base address must be public HTTPS (use ${local} only for a local self-test)`,
    });
  }
  const hostReason = nonPublicHostReason(url.hostname);
  if (hostReason) {
    findings.push({
      rule: 'public-host',
      part: 'host',
      severity: rules.local ? 'warning' : 'problem',
      requirement: publicHttps,
      text: rules.local
        ? `the host ${url.hostname} ${hostReason}; allowed by ${local}, but hosted callers cannot reach it`
        : `the host ${url.hostname} ${hostReason}; hosted callers cannot reach localhost or private addresses, so the base address must be public (use ${local} only for a local self-test)`,
    });
  }
  const scheme = findings.some((f) => f.part === 'scheme' && f.severity === 'problem') ? 'https:' : url.protocol;
  const correctedBaseUrl = `${scheme}//${url.host}${apiRoot}`;
  if (apiRoot !== path) {
    findings.push({
      rule: 'no-health-suffix',
      part: 'path',
      severity: 'problem',
      requirement: 'BASE-URL-NO-HEALTH-SUFFIX',
      text: `the base URL ends with /health; enter the API root (e.g. ${correctedBaseUrl}): the service appends /health and the other route paths itself`,
    });
  }
  // Only the service's own address is refused, by the rule `serve`'s registration applies too; a provider's
  // base path under /api/v1 is allowed like any other.
  const own = serviceAddressAt(url, rules.service ?? []);
  if (own)
    findings.push({
      rule: 'not-service',
      part: 'host',
      severity: 'problem',
      requirement: 'BASE-URL-NOT-CORE',
      text: `the base URL points at ${own.what} (${own.host}:${own.port}); enter the provider backend's address`,
    });
  if (url.search || url.hash)
    findings.push({
      rule: 'no-query',
      part: 'query',
      severity: 'warning',
      text: 'the base URL carries a query string or fragment; route paths are appended to it, so it is usually a mistake',
    });
  return verdictOf(findings, correctedBaseUrl);
}

const verdictOf = (findings: AddressFinding[], correctedBaseUrl?: string): AddressVerdict => ({
  problems: findings.filter((f) => f.severity === 'problem'),
  warnings: findings.filter((f) => f.severity === 'warning'),
  ...(correctedBaseUrl === undefined ? {} : { correctedBaseUrl }),
});
