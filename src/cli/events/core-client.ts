import { request } from 'undici';
import { UsageError } from '../../model/errors.js';
import { DEFAULT_ADMIN_TOKEN_ENV } from '../../model/serve-settings.js';
import { secretFromVariable } from '../options.js';

/** `provcert serve`'s address unless told otherwise. */
export const DEFAULT_CORE = 'http://127.0.0.1:8787';
const TIMEOUT_MS = 10_000;

/** The operator token, read from the environment only (`--admin-token-env NAME`, default PROVCERT_ADMIN_TOKEN). */
export function adminToken(env: NodeJS.ProcessEnv, name: string | undefined): string {
  return secretFromVariable(
    env,
    name ?? DEFAULT_ADMIN_TOKEN_ENV,
    'operator token',
    "set it to the core's admin token, or pass --admin-token-env NAME",
  );
}

/** The core's API base (…/api/v1) from `--core`: the core address, or its /api/v1. */
export function apiBase(core: string | undefined): string {
  let url: URL;
  try {
    url = new URL(core ?? DEFAULT_CORE);
  } catch {
    throw new UsageError(`--core "${core}" is not a URL (e.g. ${DEFAULT_CORE})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--core must be http(s), got ${url.protocol}`);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path.endsWith('/api/v1') ? path : `${path}/api/v1`}`;
}

export interface CoreAnswer {
  status: number;
  body: unknown;
}

/** A GET of the core API with the operator token; `holdSeconds` is how long the core may hold it (long poll). */
export async function coreGet(url: string, token: string, signal: AbortSignal, holdSeconds = 0): Promise<CoreAnswer> {
  const timeout = TIMEOUT_MS + holdSeconds * 1000;
  const res = await request(url, {
    method: 'GET',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    headersTimeout: timeout,
    bodyTimeout: timeout,
    signal,
  });
  const text = await res.body.text();
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, body };
}

/** The core's error message (`{code, message}`), or the status alone. */
export function coreMessage(answer: CoreAnswer): string {
  const body = answer.body;
  const message =
    typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
      ? (body as { message: string }).message
      : undefined;
  return message ? `${answer.status} ${message}` : `HTTP ${answer.status}`;
}

/** Why a request did not reach the core, in a few words. */
export function unreachable(e: unknown, base: string): string {
  const code = (e as { code?: string }).code ?? (e as Error).name;
  return `could not reach the core at ${base}: ${code === 'ECONNREFUSED' ? 'connection refused (is provcert serve running?)' : code}`;
}
