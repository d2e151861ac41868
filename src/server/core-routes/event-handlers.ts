import { decodeCursor, START_CURSOR } from '../event-pages.js';
import { sendError, sendJson } from '../http-io.js';
import { type CoreContext, redactor, type SlugRequest } from './context.js';
import type { Operator } from './guards.js';
import type { Outcome } from './request-input.js';
import { eventView } from './views.js';

const DEFAULT_EVENTS_PAGE = 100;
const MAX_EVENTS_PAGE = 1_000;

/** `limit` and `cursor` of GET …/events, or the reason they are refused. */
function pageQuery(query: URLSearchParams): Outcome<{ limit: number; cursor: typeof START_CURSOR }> {
  const rawLimit = query.get('limit');
  const limit = rawLimit === null ? DEFAULT_EVENTS_PAGE : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_EVENTS_PAGE) {
    return { ok: false, message: `limit must be a whole number from 1 to ${MAX_EVENTS_PAGE}` };
  }
  const rawCursor = query.get('cursor');
  if (rawCursor === null) return { ok: true, limit, cursor: START_CURSOR };
  const cursor = decodeCursor(rawCursor);
  if (!cursor)
    return {
      ok: false,
      message: 'cursor is not one this server handed out (pass nextCursor of the previous page unchanged)',
    };
  return { ok: true, limit, cursor };
}

/** GET /providers/{slug}/events (operator): registered providers and slugs configured with --slug/--config alike. */
export async function events(ctx: CoreContext, { res, params: { slug }, query }: SlugRequest<Operator>): Promise<void> {
  if (!ctx.registry.get(slug) && !ctx.knownSlug(slug))
    return sendError(res, 404, 'NOT_FOUND', `no provider "${slug}" is registered`);
  const page = pageQuery(query());
  const core = ctx.core();
  if (!page.ok) return sendError(res, 400, 'INVALID_ARGUMENT', page.message);
  if (!core) return sendError(res, 500, 'INTERNAL_ERROR', 'the core is not ready');
  const found = await core.events(slug, page.cursor, page.limit);
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
