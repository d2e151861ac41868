import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../server/body-reader.js';

/**
 * The console's pages load only their own stylesheet and script: no inline script or style, no frame,
 * no form posting elsewhere, no plugin, nothing fetched from another origin.
 */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

export function sendPage(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string | string[]> = {},
  csp = CONSOLE_CSP,
): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-security-policy': csp,
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

/** Post-redirect-get: every form answers 303 to a page. */
export function redirect(res: ServerResponse, location: string, headers: Record<string, string | string[]> = {}): void {
  if (res.headersSent) return;
  res.writeHead(303, { ...SECURITY_HEADERS, location, 'content-length': 0, ...headers });
  res.end();
}

export function sendAsset(res: ServerResponse, type: string, body: string): void {
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'cache-control': 'no-cache',
    'content-type': `${type}; charset=utf-8`,
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

const MAX_FORM_BYTES = 32 * 1024;
const FORM_TIMEOUT_MS = 10_000;

/** A urlencoded form body, bounded in size and time; undefined when it is too large, too slow or not a form. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return undefined;
  const read = await readBody(req, MAX_FORM_BYTES, FORM_TIMEOUT_MS);
  return read.ok ? new URLSearchParams(read.body.toString('utf8')) : undefined;
}
