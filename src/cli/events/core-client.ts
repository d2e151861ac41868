import { request } from 'undici';
import { SIGNATURE_HEADER } from '../../model/contract-constants.js';
import { UsageError } from '../../model/errors.js';
import { DEFAULT_ADMIN_TOKEN_ENV } from '../../model/serve-settings.js';
import { hmacHex } from '../../util/hmac.js';
import { secretFromEnv, secretFromVariable } from '../options.js';

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

/**
 * How `provcert events` proves who it is: the operator token to `provcert serve`'s core (the default), or, with
 * `--secret-env`, the webhook secret to a running `provcert run`'s receiver, as a signature of the empty body
 * (the contract's signed GET): the secret itself is never sent.
 */
export interface EventsCredential {
  /** The request headers that carry it. */
  headers: Record<string, string>;
  /** Values no output may show (the secret and its signature, which works like a key). */
  masked: string[];
  /** Who answers: the core (serve) or the receiver (run). */
  server: 'core' | 'receiver';
  /** What it refused, for messages. */
  refused: string;
}

export function eventsCredential(
  env: NodeJS.ProcessEnv,
  opts: { adminTokenEnv?: string; secretEnv?: string | boolean },
): EventsCredential {
  if (opts.secretEnv !== undefined && opts.secretEnv !== false) {
    if (opts.adminTokenEnv !== undefined)
      throw new UsageError('--secret-env and --admin-token-env exclude each other (a run signs, a core takes a token)');
    const secret = secretFromEnv(env, typeof opts.secretEnv === 'string' ? opts.secretEnv : undefined);
    const signature = hmacHex(secret, '');
    return {
      headers: { [SIGNATURE_HEADER]: signature },
      masked: [secret, signature],
      server: 'receiver',
      refused: 'the webhook secret',
    };
  }
  const token = adminToken(env, opts.adminTokenEnv);
  return {
    headers: { authorization: `Bearer ${token}` },
    masked: [token],
    server: 'core',
    refused: 'the operator token',
  };
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
export function coreGet(url: string, token: string, signal: AbortSignal, holdSeconds = 0): Promise<CoreAnswer> {
  return getWith(url, { authorization: `Bearer ${token}` }, signal, holdSeconds);
}

/** A GET carrying `credentials` (EventsCredential's headers); `holdSeconds` as coreGet. */
export async function getWith(
  url: string,
  credentials: Record<string, string>,
  signal: AbortSignal,
  holdSeconds = 0,
): Promise<CoreAnswer> {
  const timeout = TIMEOUT_MS + holdSeconds * 1000;
  const res = await request(url, {
    method: 'GET',
    headers: { ...credentials, accept: 'application/json' },
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

/** Why a request did not reach the core (or a run's receiver), in a few words. */
export function unreachable(e: unknown, base: string, server: 'core' | 'receiver' = 'core'): string {
  const code = (e as { code?: string }).code ?? (e as Error).name;
  const running = server === 'core' ? 'provcert serve' : 'the provcert run';
  return `could not reach the ${server} at ${base}: ${code === 'ECONNREFUSED' ? `connection refused (is ${running} running?)` : code}`;
}
