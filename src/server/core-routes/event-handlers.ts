import { isAccepted } from '../../model/webhooks.js';
import { answerEvents, eventView } from '../event-listing.js';
import { sendError, sendJson } from '../http-io.js';
import { type CoreContext, type CoreHandler, receivedFor, redactor, type SlugRequest } from './context.js';
import { type Caller, mayActOn } from './guards.js';

/** Registered or configured; an account knows its own registered providers only. */
function knownSlug(ctx: CoreContext, slug: string, caller: Caller): boolean {
  const provider = ctx.registry.get(slug);
  if (caller.actor === 'account') return provider !== undefined && mayActOn(caller, provider);
  return provider !== undefined || ctx.knownSlug(slug);
}

/**
 * GET /providers/{slug}/events (operator, or the owning account): registered providers and slugs configured with --slug/--config alike.
 * `after` and `wait` make it a long poll (server/event-listing.ts, shared with a run's receiver).
 */
export async function events(
  ctx: CoreContext,
  { res, params: { slug }, query, granted }: SlugRequest<Caller>,
): Promise<void> {
  if (!knownSlug(ctx, slug, granted)) return sendError(res, 404, 'NOT_FOUND', `no provider "${slug}" is registered`);
  await answerEvents(ctx.core(), slug, query(), res, redactor(ctx));
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
