/**
 * "The portal address and the core address must never be entered as a provider base address" (contract, What
 * the service does §6; DECISIONS.md, Addresses). One rule for every layer that judges a base address: the
 * base-url check (against provcert's embedded receiver) and `serve`'s registration (against its own core,
 * which also serves the portal under /console and the webhook receiver under /api/v1/webhooks).
 *
 * An address is the service's when it reaches the same server: the same host (loopback names alike) and the
 * same port. Only that: a provider's own base path may contain /api/v1 like any other path.
 */

/** One address of the service itself, and what it is in words (for the message). */
export interface ServiceAddress {
  what: string;
  url: string;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

const hostOf = (url: URL): string => url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
const portOf = (url: URL): number => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);
const sameHost = (a: string, b: string): boolean => a === b || (LOOPBACK_NAMES.has(a) && LOOPBACK_NAMES.has(b));

function parse(value: string | URL): URL | undefined {
  if (value instanceof URL) return value;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** The service address a base address points at, or undefined when it is none of them (or not a URL). */
export function serviceAddressAt(
  baseUrl: string | URL,
  service: readonly ServiceAddress[],
): (ServiceAddress & { host: string; port: number }) | undefined {
  const base = parse(baseUrl);
  if (!base) return undefined;
  for (const address of service) {
    const own = parse(address.url);
    if (!own || portOf(own) === 0) continue;
    if (portOf(base) === portOf(own) && sameHost(hostOf(base), hostOf(own)))
      return { ...address, host: own.hostname, port: portOf(own) };
  }
  return undefined;
}
