import type { ServerResponse } from 'node:http';
import type { ReceivedWebhook, WebhookInbox } from '../model/webhooks.js';
import { decodeCursor, type EventCursor } from './event-pages.js';
import type { EventPage } from './webhook-store.js';

/** Longest hold of one long poll (GET …/events?wait=): a follower asks again. */
export const MAX_WAIT_SECONDS = 60;
/** Long polls held at once; beyond them a poll answers at once (the follower asks again). */
const MAX_HELD = 200;
let held = 0;

/** The request a listing is listed under: its path slug, or on the legacy route the slug its body names. */
const listedUnder = (w: ReceivedWebhook, slug: string): boolean =>
  w.slug === slug || (w.slug === null && w.event?.['providerSlug'] === slug);

export interface FollowSource {
  events(slug: string, cursor: EventCursor, limit: number): Promise<EventPage>;
  subscribe: WebhookInbox['subscribe'];
  /** Aborted when the server starts closing: held polls answer at once, so they do not hold its shutdown. */
  readonly closing?: AbortSignal;
}

/**
 * The first page from `cursor` with entries after `after` (pages with none are skipped), or the last page
 * read with no entry left when the listing holds none after it yet.
 */
async function pageAfter(
  core: FollowSource,
  slug: string,
  cursor: EventCursor,
  limit: number,
  after: number,
): Promise<EventPage> {
  for (let at = cursor; ; ) {
    const page = await core.events(slug, at, limit);
    const fresh = page.items.filter((w) => w.seq > after);
    const next = page.nextCursor === undefined ? undefined : decodeCursor(page.nextCursor);
    if (fresh.length > 0 || !next) return { ...page, items: fresh };
    at = next;
  }
}

/**
 * One page of the listing after `after`, held up to `waitSeconds` until an entry arrives (a long poll: the
 * core's arrivals wake it, as they wake the console's live stream). Ends early when the client goes away.
 */
export async function followPage(
  core: FollowSource,
  slug: string,
  query: { cursor: EventCursor; limit: number; after: number; waitSeconds: number },
  res: ServerResponse,
): Promise<EventPage> {
  const { cursor, limit, after, waitSeconds } = query;
  if (waitSeconds === 0 || held >= MAX_HELD) return pageAfter(core, slug, cursor, limit, after);
  held++;
  let wake: () => void = () => undefined;
  let woken = false;
  // Subscribed before the first read, so an event that arrives between the read and the wait is not missed.
  const unsubscribe = core.subscribe((w) => {
    if (!listedUnder(w, slug)) return;
    woken = true;
    wake();
  });
  const deadline = Date.now() + waitSeconds * 1000;
  try {
    for (;;) {
      woken = false;
      const page = await pageAfter(core, slug, cursor, limit, after);
      const left = deadline - Date.now();
      if (page.items.length > 0 || left <= 0 || res.destroyed || core.closing?.aborted) return page;
      if (woken) continue;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          res.off('close', done);
          core.closing?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, left);
        wake = done;
        res.once('close', done);
        core.closing?.addEventListener('abort', done, { once: true });
      });
      wake = () => undefined;
    }
  } finally {
    unsubscribe();
    held--;
  }
}
