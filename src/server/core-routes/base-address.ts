import { isIP } from 'node:net';
import { serviceAddressAt } from '../../util/service-address.js';

/** Why a provider base address breaks the address rules of DECISIONS.md (Addresses), or undefined. */
export function baseAddressProblem(value: string, options: { local: boolean; coreUrl?: string }): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `baseUrl "${value}" is not a URL`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `baseUrl must be http(s), found ${url.protocol}`;
  if (/\/health\/?$/.test(url.pathname))
    return 'baseUrl must not end with /health: the service appends route paths itself';
  // The same rule as the base-url check: this server is the core, the portal (/console) and the receiver.
  const core = options.coreUrl === undefined ? [] : [{ what: "this core server's own address", url: options.coreUrl }];
  if (serviceAddressAt(url, core)) return "baseUrl is this core server's own address, not the provider's";
  if (options.local) return undefined;
  if (url.protocol !== 'https:')
    return 'baseUrl must be public HTTPS (start the server with --local to allow http:// for local tests)';
  if (isPrivateHost(url.hostname))
    return `baseUrl host ${url.hostname} is loopback or private; hosted callers cannot reach it (use --local for local tests)`;
  return undefined;
}

function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal'))
    return true;
  const family = isIP(host);
  if (family === 4) {
    const [a = 0, b = 0] = host.split('.').map(Number);
    return (
      a === 10 ||
      a === 127 ||
      a === 0 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (family === 6) {
    return (
      host === '::1' || host === '::' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || host.startsWith('::ffff:')
    );
  }
  return false;
}
