import type { RouteRequest } from '../server/route-table.js';
import { type ConsoleContext, notFound, readToken } from './context.js';
import type { Viewer } from './guards.js';
import { html } from './html.js';
import { page } from './layout.js';
import { sendPage } from './respond.js';
import { streamProvider } from './stream.js';

/** Live streams open at once: each holds a connection and wakes on every webhook. */
const MAX_STREAMS = 200;

/** GET /console/providers/{slug}/stream: the provider page's live events (Server-Sent Events). */
export function stream(ctx: ConsoleContext, r: RouteRequest<{ slug: string }, Viewer>): void {
  const { session, slug } = r.granted;
  const serve = ctx.serve;
  if (!serve) return notFound(r.res, session, 'not found');
  if (ctx.openStreams >= MAX_STREAMS)
    return sendPage(r.res, 503, page('Busy', html`<p>Too many live views are open; reload later.</p>`, session));
  ctx.openStreams++;
  r.res.once('close', () => ctx.openStreams--);
  const connected = serve.core;
  // A reconnecting EventSource says which event it saw last; the page's own newest is the floor.
  const after = Math.max(Number(r.query().get('after') ?? '0'), Number(r.req.headers['last-event-id'] ?? '0'));
  streamProvider(
    r.res,
    {
      api: ctx.api,
      runner: ctx.runner,
      onWebhook: (listener) => connected.subscribe((w) => listener(w.slug)),
      live: () => ctx.sessions.isLive(session),
      onEnd: (hook) => ctx.sessions.onEnd(session, hook),
    },
    slug,
    readToken(ctx, session),
    Number.isSafeInteger(after) && after >= 0 ? after : 0,
    r.query().get('certifying') === '1',
  );
}
