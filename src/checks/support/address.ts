import { isIP } from 'node:net';

/**
 * Static rules on the provider base address (contract, "What the service does" §6; DECISIONS.md,
 * Addresses). Pure, so every rule is unit-tested without a network.
 */

/** Why a host is not publicly reachable by a hosted caller, or undefined when it looks public. */
export function nonPublicHostReason(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'is localhost';
  if (host.endsWith('.local')) return 'is a .local (mDNS) name';
  if (host.endsWith('.internal')) return 'is an .internal name';
  const family = isIP(host);
  if (family === 4) return ipv4Reason(host);
  if (family === 6) return ipv6Reason(host);
  if (!host.includes('.')) return 'is a single-label name that only resolves on a local network';
  return undefined;
}

function ipv4Reason(host: string): string | undefined {
  const [a = 0, b = 0] = host.split('.').map(Number);
  if (a === 127) return 'is a loopback address (127.0.0.0/8)';
  if (a === 10) return 'is a private address (10.0.0.0/8)';
  if (a === 172 && b >= 16 && b <= 31) return 'is a private address (172.16.0.0/12)';
  if (a === 192 && b === 168) return 'is a private address (192.168.0.0/16)';
  if (a === 169 && b === 254) return 'is a link-local address (169.254.0.0/16)';
  if (a === 100 && b >= 64 && b <= 127) return 'is a carrier-grade NAT address (100.64.0.0/10)';
  if (a === 0) return 'is an unspecified address (0.0.0.0/8)';
  return undefined;
}

function ipv6Reason(host: string): string | undefined {
  if (host === '::1') return 'is the IPv6 loopback address (::1)';
  if (host === '::') return 'is the unspecified IPv6 address (::)';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (mapped?.[1]) return ipv4Reason(mapped[1]);
  const first = parseInt(host.split(':')[0] || '0', 16);
  if ((first & 0xfe00) === 0xfc00) return 'is a unique-local IPv6 address (fc00::/7)';
  if ((first & 0xffc0) === 0xfe80) return 'is a link-local IPv6 address (fe80::/10)';
  return undefined;
}

export interface AddressRules {
  /** --local: http and loopback/private hosts are allowed (with a warning). */
  local: boolean;
  /** The embedded webhook receiver, which must not be entered as the provider base address. */
  receiver?: { host: string; port: number };
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

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);
const sameHost = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase() || (LOOPBACK_NAMES.has(a.toLowerCase()) && LOOPBACK_NAMES.has(b.toLowerCase()));

/** Every static problem of a base address; each names the rule and the fix. */
export function judgeBaseAddress(baseUrl: string, rules: AddressRules): AddressVerdict {
  const problems: AddressProblem[] = [];
  const warnings: string[] = [];
  const publicHttps = (text: string) => problems.push({ text, requirement: 'BASE-URL-PUBLIC-HTTPS' });
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
    if (rules.local) warnings.push('the base URL uses http://; allowed by --local, but hosted certification needs a public HTTPS address');
    else publicHttps('the base URL uses http://; a provider base address must be public HTTPS (use --local only for a local self-test)');
  }
  const hostReason = nonPublicHostReason(url.hostname);
  if (hostReason) {
    if (rules.local) warnings.push(`the host ${url.hostname} ${hostReason}; allowed by --local, but hosted callers cannot reach it`);
    else publicHttps(`the host ${url.hostname} ${hostReason}; hosted callers cannot reach localhost or private addresses, so the base address must be public (use --local only for a local self-test)`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/health$/i.test(path)) {
    problems.push({
      text: `the base URL ends with /health; enter the API root (e.g. ${url.origin}${path.slice(0, -'/health'.length) || '/'}): the service appends /health and the other route paths itself`,
      requirement: 'BASE-URL-NO-HEALTH-SUFFIX',
    });
  }
  if (/(^|\/)api\/v1(\/|$)/i.test(path)) {
    problems.push({
      text: `the base URL path ${url.pathname} contains /api/v1, which is the core API address; enter the provider backend's own base address`,
      requirement: 'BASE-URL-NOT-CORE',
    });
  }
  if (rules.receiver && rules.receiver.port !== 0) {
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    if (port === rules.receiver.port && sameHost(url.hostname, rules.receiver.host)) {
      problems.push({
        text: `the base URL points at provcert's own webhook receiver (${rules.receiver.host}:${rules.receiver.port}); enter the provider backend's address`,
        requirement: 'BASE-URL-NOT-CORE',
      });
    }
  }
  if (url.search || url.hash) warnings.push('the base URL carries a query string or fragment; route paths are appended to it, so it is usually a mistake');
  return { problems, warnings };
}
