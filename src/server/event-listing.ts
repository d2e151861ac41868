import type { ServerResponse } from 'node:http';
import type { components } from '../contract/generated/contract-types.js';
import { eventIdentity, type ReceivedWebhook } from '../model/webhooks.js';
import type { Redactor } from '../util/redact.js';
import { type FollowSource, followPage, MAX_WAIT_SECONDS } from './event-follow.js';
import { decodeCursor, START_CURSOR } from './event-pages.js';
import { sendError, sendJson } from './http-io.js';

// GET …/providers/{slug}/events as both receivers answer it: `provcert serve`'s core (operator or owning account)
// and a `provcert run`'s own receiver (signed with the run's webhook secret). One query, one answer, one masking.

const DEFAULT_EVENTS_PAGE = 100;
const MAX_EVENTS_PAGE = 1_000;

type CoreEvent = components['schemas']['CoreEvent'];

/**
 * One received webhook as listed under a provider. `listedSlug` names the provider the list is for: an
 * event from the legacy slugless route is listed under the providerSlug of its body.
 */
export function eventView(w: ReceivedWebhook, listedSlug: string): CoreEvent {
  return {
    seq: w.seq,
    receivedAt: w.receivedAt,
    slug: w.slug ?? listedSlug,
    ...(w.slug === null ? { legacyRoute: true as const } : {}),
    ...eventIdentity(w),
    verified: w.verified,
    ...(w.verifiedWith ? { verifiedWith: w.verifiedWith } : {}),
    duplicate: w.duplicate,
    answeredStatus: w.answeredStatus,
    ...(w.signatureHeader ? { signatureHeader: w.signatureHeader } : {}),
    ...(w.problem ? { problem: w.problem } : {}),
    ...(w.restored ? { restored: true as const } : {}),
  };
}

interface PageQuery {
  limit: number;
  cursor: typeof START_CURSOR;
  after: number;
  waitSeconds: number;
}

type Parsed = ({ ok: true } & PageQuery) | { ok: false; message: string };

/** A whole number from `min` to `max` (absent: `fallback`), or undefined. */
function wholeNumber(raw: string | null, fallback: number, min: number, max: number): number | undefined {
  const n = raw === null ? fallback : Number(raw);
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

/** `limit`, `cursor`, `after` and `wait` of GET …/events, or the reason they are refused. */
function pageQuery(query: URLSearchParams): Parsed {
  const limit = wholeNumber(query.get('limit'), DEFAULT_EVENTS_PAGE, 1, MAX_EVENTS_PAGE);
  if (limit === undefined) return { ok: false, message: `limit must be a whole number from 1 to ${MAX_EVENTS_PAGE}` };
  const after = wholeNumber(query.get('after'), 0, 0, Number.MAX_SAFE_INTEGER);
  if (after === undefined)
    return { ok: false, message: 'after must be a whole number (the seq of the last entry seen)' };
  const waitSeconds = wholeNumber(query.get('wait'), 0, 0, MAX_WAIT_SECONDS);
  if (waitSeconds === undefined)
    return { ok: false, message: `wait must be a whole number of seconds from 0 to ${MAX_WAIT_SECONDS}` };
  const rawCursor = query.get('cursor');
  if (rawCursor === null) return { ok: true, limit, cursor: START_CURSOR, after, waitSeconds };
  const cursor = decodeCursor(rawCursor);
  if (!cursor)
    return {
      ok: false,
      message: 'cursor is not one this server handed out (pass nextCursor of the previous page unchanged)',
    };
  return { ok: true, limit, cursor, after, waitSeconds };
}

/**
 * Answers one GET …/providers/{slug}/events of a known slug: the page after `after`, held up to `wait` seconds
 * (a long poll: `provcert events --follow` asks with the seq it showed last), every value `redactor` knows masked
 * (an echoing provider's event may carry any secret the server knows).
 */
export async function answerEvents(
  source: FollowSource | undefined,
  slug: string,
  query: URLSearchParams,
  res: ServerResponse,
  redactor: Redactor,
): Promise<void> {
  const page = pageQuery(query);
  if (!page.ok) return sendError(res, 400, 'INVALID_ARGUMENT', page.message);
  if (!source) return sendError(res, 500, 'INTERNAL_ERROR', 'the server is not ready');
  const found = await followPage(source, slug, page, res);
  if (res.destroyed) return;
  sendJson(
    res,
    200,
    redactor.deep({
      data: found.items.map((w) => eventView(w, slug)),
      total: found.total,
      ...(found.nextCursor ? { nextCursor: found.nextCursor } : {}),
    }),
    // A closing server's last answer ends the connection too: a kept-alive one would hold the shutdown.
    source.closing?.aborted ? { connection: 'close' } : {},
  );
}
