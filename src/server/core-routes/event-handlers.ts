import { isAccepted } from '../../model/webhooks.js';
import { decodeCursor, START_CURSOR } from '../event-pages.js';
import { sendError, sendJson } from '../http-io.js';
import { type CoreContext, type CoreHandler, receivedFor, redactor, type SlugRequest } from './context.js';
import { followPage, MAX_WAIT_SECONDS } from './event-follow.js';
import { type Caller, mayActOn } from './guards.js';
import type { Outcome } from './request-input.js';
import { eventView } from './views.js';

const DEFAULT_EVENTS_PAGE = 100;
const MAX_EVENTS_PAGE = 1_000;

interface PageQuery {
  limit: number;
  cursor: typeof START_CURSOR;
  after: number;
  waitSeconds: number;
}

/** A whole number from `min` to `max` (absent: `fallback`), or undefined. */
function wholeNumber(raw: string | null, fallback: number, min: number, max: number): number | undefined {
  const n = raw === null ? fallback : Number(raw);
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

/** `limit`, `cursor`, `after` and `wait` of GET …/events, or the reason they are refused. */
function pageQuery(query: URLSearchParams): Outcome<PageQuery> {
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

/** Registered or configured; an account knows its own registered providers only. */
function knownSlug(ctx: CoreContext, slug: string, caller: Caller): boolean {
  const provider = ctx.registry.get(slug);
  if (caller.actor === 'account') return provider !== undefined && mayActOn(caller, provider);
  return provider !== undefined || ctx.knownSlug(slug);
}

/**
 * GET /providers/{slug}/events (operator, or the owning account): registered providers and slugs configured with --slug/--config alike.
 * `after` and `wait` make it a long poll: `provcert events --follow` asks with the seq it showed last.
 */
export async function events(
  ctx: CoreContext,
  { res, params: { slug }, query, granted }: SlugRequest<Caller>,
): Promise<void> {
  if (!knownSlug(ctx, slug, granted)) return sendError(res, 404, 'NOT_FOUND', `no provider "${slug}" is registered`);
  const page = pageQuery(query());
  const core = ctx.core();
  if (!page.ok) return sendError(res, 400, 'INVALID_ARGUMENT', page.message);
  if (!core) return sendError(res, 500, 'INTERNAL_ERROR', 'the core is not ready');
  const found = await followPage(core, slug, page, res);
  if (res.destroyed) return;
  // An event may carry any secret this server knows (an echoing provider): masked like every other answer.
  sendJson(
    res,
    200,
    redactor(ctx).deep({
      data: found.items.map((w) => eventView(w, slug)),
      total: found.total,
      ...(found.nextCursor ? { nextCursor: found.nextCursor } : {}),
    }),
  );
}

/** GET /providers/{slug}/events/{eventId} (operator, or the owning account): the newest accepted event with that id, with its raw body. */
export const storedEvent: CoreHandler<{ slug: string; eventId: string }, Caller> = async (
  ctx,
  { res, params: { slug, eventId }, granted },
) => {
  if (!knownSlug(ctx, slug, granted)) return sendError(res, 404, 'NOT_FOUND', `no provider "${slug}" is registered`);
  const received = await receivedFor(ctx, slug);
  const found = received.findLast((w) => isAccepted(w) && !w.duplicate && w.event?.['eventId'] === eventId);
  if (!found)
    return sendError(res, 404, 'NOT_FOUND', `no accepted event "${eventId}" of ${slug} is stored on this core`);
  sendJson(res, 200, redactor(ctx).deep({ event: eventView(found, slug), rawBody: found.rawBody }));
};
