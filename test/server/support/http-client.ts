import { createHmac } from 'node:crypto';
import { type Agent, request } from 'node:http';

export interface RawAnswer {
  status: number;
  json: unknown;
  text: string;
}

/** POST with node:http so tests control bytes, headers and pacing exactly. */
export function post(
  url: string,
  body: string | Buffer,
  headers: Record<string, string>,
  agent?: Agent,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-length': String(Buffer.byteLength(body)), ...headers }, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, json, text });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export const sign = (secret: string, body: string | Buffer): string =>
  createHmac('sha256', secret).update(body).digest('hex');

export function event(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    eventId: `evt-${Math.random().toString(36).slice(2)}`,
    eventType: 'action.status_updated',
    providerSlug: 'demo',
    timestamp: new Date().toISOString(),
    actionId: 'act-1',
    newStatus: 'COMPLETED',
    ...overrides,
  };
}

/** Posts one event about `slug` to `url`, signed with `secret`; resolves with its eventId once the receiver answered. */
export async function deliverEvent(
  url: string,
  slug: string,
  secret: string,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const body = JSON.stringify(event({ providerSlug: slug, ...overrides }));
  await post(url, body, { 'content-type': 'application/json', 'x-service-signature': sign(secret, body) });
  return (JSON.parse(body) as { eventId: string }).eventId;
}

/** Resolves when `text()` holds `wanted`: an arrival wakes a follower, so no fixed sleep is involved. */
export async function untilShown(text: () => string, wanted: string): Promise<void> {
  while (!text().includes(wanted)) await new Promise((r) => setImmediate(r));
}

/** Run `task` over `items` with at most `concurrency` in flight. */
export async function pool<T, R>(items: T[], concurrency: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i] as T);
    }
  });
  await Promise.all(workers);
  return results;
}

export interface JsonAnswer {
  status: number;
  json: Record<string, unknown>;
}

export type ApiCall = (
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  token?: string | null,
) => Promise<JsonAnswer>;

/**
 * A client of serve's JSON API at `base` (a getter where each test starts its own serve). A call sends `token`
 * (`defaultToken` unless given; none when empty or null) as the bearer, and its body as JSON.
 */
export function apiClient(base: string | (() => string), defaultToken: string): ApiCall {
  return async (method, path, body, token = defaultToken) => {
    const res = await fetch(`${typeof base === 'string' ? base : base()}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
}
