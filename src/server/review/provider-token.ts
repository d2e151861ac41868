import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';

/** Provider bearer tokens start with this, so a leaked one is recognizable (and a scanner can find it). */
export const PROVIDER_TOKEN_PREFIX = 'pvt_';
const KEY_FILE = 'token-key';

/**
 * The server's token key (`<data-dir>/token-key`, 0600), created on first start. Provider tokens are
 * derived from it, so the server can recompute every token to mask it, in any encoding, wherever a
 * provider echoes it; the data dir stores only each token's hash.
 */
export async function tokenKey(dataDir: string): Promise<string> {
  const path = join(dataDir, KEY_FILE);
  try {
    const stored = (await readFile(path, 'utf8')).trim();
    if (stored) return stored;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const key = randomBytes(32).toString('hex');
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(`${key}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return key;
}

/** The provider bearer token of a registration (shown once; only its hash is stored). */
export function providerToken(key: string, slug: string, createdAt: string): string {
  return `${PROVIDER_TOKEN_PREFIX}${createHmac('sha256', key).update(`provider-token:${slug}:${createdAt}`).digest('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The bearer token of a request, or undefined. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  const token = match?.[1]?.trim();
  return token === undefined || token === '' ? undefined : token;
}

/** Constant-time comparison of two hex hashes of equal length. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
