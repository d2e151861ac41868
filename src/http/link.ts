/**
 * Which provider-given links provcert may open (docs/decisions.md, Opening the checkout link): only a link on
 * the host and port of the base address the run already talks to, over http or https, without user info.
 * Anything else (a payment service's page, another host of the provider, an internal address) is not fetched:
 * a certification run must not become a way to make provcert, or `serve`, request arbitrary addresses.
 */
export type LinkVerdict = { ok: true; url: URL } | { ok: false; reason: string };

const effectivePort = (u: URL): string => u.port || (u.protocol === 'https:' ? '443' : '80');

export function linkOnBaseHost(baseUrl: string, link: string): LinkVerdict {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return { ok: false, reason: 'is not an absolute URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, reason: `uses ${url.protocol}, not http or https` };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'carries user info' };
  const base = new URL(baseUrl);
  const sameHost = url.hostname.toLowerCase() === base.hostname.toLowerCase();
  // The port is compared as connected: https://host and https://host:443 are the same service.
  const samePort = url.protocol === base.protocol ? effectivePort(url) === effectivePort(base) : url.port === base.port;
  if (!sameHost || !samePort)
    return { ok: false, reason: `is on ${url.host}, not on the base address's host ${base.host}` };
  return { ok: true, url };
}
