import { isIP } from 'node:net';

/** Why a host is not publicly reachable by a hosted caller, or undefined when it looks public. */
export function nonPublicHostReason(hostname: string): string | undefined {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
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

/** A host on this very machine (localhost, 127.0.0.0/8, ::1): it reads the same clock as provcert. */
export function isLoopbackHost(hostname: string): boolean {
  const reason = nonPublicHostReason(hostname);
  return reason === 'is localhost' || reason?.includes('loopback') === true;
}
