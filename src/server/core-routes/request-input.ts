import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../body-reader.js';
import { sendError } from '../http-io.js';
import { readConfinedCredential } from './credential-file.js';
import type { StoredProvider } from './registry.js';

const MAX_JSON_BODY = 64 * 1024;
const BODY_TIMEOUT_MS = 10_000;

export type Outcome<T> = ({ ok: true } & T) | { ok: false; message: string };

/** A bounded JSON body (empty = `{}`), or a 400/413/408 answered. */
export async function readJsonBody(
  req: IncomingMessage,
  res: ServerResponse,
): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const read = await readBody(req, MAX_JSON_BODY, BODY_TIMEOUT_MS);
  if (!read.ok) {
    sendError(res, read.status, 'INVALID_ARGUMENT', read.message, true);
    return { ok: false };
  }
  const text = read.body.toString('utf8');
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    sendError(res, 400, 'INVALID_ARGUMENT', `the body is not valid JSON: ${(e as Error).message}`);
    return { ok: false };
  }
}

/** The provider's credential, from the server's environment or a file in the credential directory. */
export async function readCredential(
  p: StoredProvider,
  env: NodeJS.ProcessEnv,
  credentialDir: string,
): Promise<Outcome<{ credential: string }>> {
  const ref = p.registration.credential;
  if ('env' in ref) {
    const value = env[ref.env];
    return value
      ? { ok: true, credential: value }
      : { ok: false, message: `the credential environment variable ${ref.env} is not set on the server` };
  }
  return readConfinedCredential(ref.file, credentialDir);
}

/** `limit` and `offset` of a listing, or why they are refused; `cap` clamps a large limit instead. */
export function paging(
  q: URLSearchParams,
  defaultLimit: number,
  maxLimit: number,
  cap = false,
): Outcome<{ limit: number; offset: number }> {
  const rawLimit = q.get('limit');
  const rawOffset = q.get('offset');
  let limit = rawLimit === null ? defaultLimit : Number(rawLimit);
  const offset = rawOffset === null ? 0 : Number(rawOffset);
  if (!Number.isInteger(limit) || limit < 1 || (!cap && limit > maxLimit))
    return { ok: false, message: `limit must be a whole number from 1 to ${maxLimit}` };
  if (!Number.isInteger(offset) || offset < 0) return { ok: false, message: 'offset must be a whole number from 0' };
  if (cap) limit = Math.min(limit, maxLimit);
  return { ok: true, limit, offset };
}

export function page<T>(items: readonly T[], limit: number, offset: number) {
  return {
    data: items.slice(offset, offset + limit),
    total: items.length,
    pagination: { total: items.length, limit, offset, hasMore: offset + limit < items.length },
  };
}

export function oneOf<T extends string>(
  q: URLSearchParams,
  name: string,
  allowed: readonly T[],
): Outcome<{ value?: T }> {
  const raw = q.get(name);
  if (raw === null || raw === '') return { ok: true };
  if ((allowed as readonly string[]).includes(raw)) return { ok: true, value: raw as T };
  return { ok: false, message: `${name} must be one of ${allowed.join(', ')} (found ${JSON.stringify(raw)})` };
}

export function time(q: URLSearchParams, name: string): Outcome<{ value?: number }> {
  const raw = q.get(name);
  if (raw === null || raw === '') return { ok: true };
  const value = Date.parse(raw);
  return Number.isNaN(value)
    ? { ok: false, message: `${name} must be an ISO 8601 date or timestamp (found ${JSON.stringify(raw)})` }
    : { ok: true, value };
}

/** The first refusal among parsed query parameters, answered as a 400; true when there was one. */
export function refusedQuery(res: ServerResponse, outcomes: readonly Outcome<object>[]): boolean {
  for (const o of outcomes)
    if (!o.ok) {
      sendError(res, 400, 'INVALID_ARGUMENT', o.message);
      return true;
    }
  return false;
}

export const matchesText = (needle: string | null, ...haystack: (string | undefined)[]): boolean =>
  needle === null || needle === '' || haystack.some((h) => h?.toLowerCase().includes(needle.toLowerCase()));
