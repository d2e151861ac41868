import { Agent, request } from 'undici';
import { isRecord } from '../util/json.js';

/** An answer of the core API: its status and parsed JSON body (`{}` when it had none). */
export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

export type ApiMethod = 'GET' | 'POST';

/**
 * The console's only way to read or change anything: the core's own HTTP API over loopback, with the
 * signed-in user's bearer token. The console keeps no copy of the data and changes no state itself, so
 * it can never disagree with what `curl` would show.
 */
export interface ConsoleApi {
  call(token: string, method: ApiMethod, path: string, body?: unknown): Promise<ApiAnswer>;
}

/** Paths of the core routes the console uses, in one place. */
export const API = {
  adminProviders: (query: URLSearchParams): string => `/api/v1/admin/providers${query.size ? `?${query}` : ''}`,
  adminProvider: (slug: string): string => `/api/v1/admin/providers/${encodeURIComponent(slug)}`,
  review: (slug: string): string => `/api/v1/admin/providers/${encodeURIComponent(slug)}/review`,
  reopen: (slug: string): string => `/api/v1/admin/providers/${encodeURIComponent(slug)}/reopen`,
  rotateWebhookSecret: (slug: string): string =>
    `/api/v1/admin/providers/${encodeURIComponent(slug)}/rotate-webhook-secret`,
  /** A provider's own rotation: the route names no slug, the provider token decides whose secret it is. */
  rotateOwnWebhookSecret: '/api/v1/providers/me/rotate-webhook-secret',
  me: '/api/v1/providers/me/dashboard',
  /** An account's own providers (the account token decides whose). */
  accountProviders: '/api/v1/account/providers',
  certificate: (slug: string): string => `/api/v1/providers/${encodeURIComponent(slug)}/certificate`,
  certify: (slug: string): string => `/api/v1/providers/${encodeURIComponent(slug)}/certify`,
  submitReview: (slug: string): string => `/api/v1/providers/${encodeURIComponent(slug)}/submit-review`,
  certifications: (slug: string): string => `/api/v1/providers/${encodeURIComponent(slug)}/certifications`,
  certification: (slug: string, id: string): string =>
    `/api/v1/providers/${encodeURIComponent(slug)}/certifications/${encodeURIComponent(id)}`,
  events: (slug: string, cursor?: string): string =>
    `/api/v1/providers/${encodeURIComponent(slug)}/events?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
} as const;

/** Reads answer within this; a certification (POST …/certify) may take minutes and waits as long as it runs. */
const READ_TIMEOUT_MS = 30_000;
/** No headers or body deadline of its own: the API's answer to certify comes when the run ends. */
const LOOPBACK = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

/** The API of the core listening at `base()` (known once it listens). */
export function loopbackApi(base: () => string): ConsoleApi {
  return {
    async call(token, method, path, body) {
      const res = await request(`${base()}${path}`, {
        method,
        dispatcher: LOOPBACK,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(method === 'GET' ? { signal: AbortSignal.timeout(READ_TIMEOUT_MS) } : {}),
      });
      const text = await res.body.text();
      let parsed: unknown = {};
      try {
        parsed = text ? JSON.parse(text) : {};
      } catch {
        parsed = { message: `the API answered ${res.statusCode} with a body that is not JSON` };
      }
      return { status: res.statusCode, body: isRecord(parsed) ? parsed : { data: parsed } };
    },
  };
}

/** The `message` of an error answer, in words. */
export function apiError(answer: ApiAnswer): string {
  const message = typeof answer.body['message'] === 'string' ? answer.body['message'] : 'no message';
  return `the API answered ${answer.status}: ${message}`;
}
