import type { ServerResponse } from 'node:http';
import type { EventListView } from '../server/core-routes/views.js';
import { records, str } from '../util/json.js';
import { API, type ConsoleApi } from './api.js';
import type { CertifyRunner } from './certify-runner.js';
import { answerAs, eventRow } from './data.js';
import { streamText } from './html.js';
import { SECURITY_HEADERS } from './respond.js';

const HEARTBEAT_MS = 15_000;

export interface StreamSource {
  api: ConsoleApi;
  runner: CertifyRunner;
  /** Calls the listener with the slug of every webhook request the core records; returns the unsubscribe. */
  onWebhook(listener: (slug: string | null) => void): () => void;
  /** False once the session ended (expiry): the stream stops. */
  live(): boolean;
  /** Runs the hook when the session is signed out; returns the removal. */
  onEnd(hook: () => void): () => void;
}

/** One Server-Sent Event, its data escaped as the static page escapes its text (one rule: streamText). */
function sendEvent(res: ServerResponse, event: string, data: unknown, id?: number): void {
  // JSON has no raw newline, so one data line carries it. The id comes back as Last-Event-ID on a reconnect.
  res.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(streamText(data))}\n\n`);
}

/**
 * Server-Sent Events for one provider page: `webhook` for each event listed after `afterSeq` (read
 * through the API's events route, woken by the core's arrivals), `certification` while one started from
 * the console runs. Ends when the browser goes away or the API stops accepting the token.
 */
export function streamProvider(
  res: ServerResponse,
  source: StreamSource,
  slug: string,
  token: string,
  afterSeq: number,
  /** The page showed a certification running: if it ended before this stream connected, say so at once. */
  pageSawCertifying = false,
): void {
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': 'text/event-stream; charset=utf-8',
    connection: 'keep-alive',
  });
  res.write('retry: 2000\n\n');
  const send = (event: string, data: unknown, id?: number): void => sendEvent(res, event, data, id);

  let after = afterSeq;
  let pageStart: string | undefined;
  let busy = false;
  let again = false;
  let closed = false;

  const drain = async (): Promise<void> => {
    for (;;) {
      if (!source.live()) return stop();
      const answer = await source.api.call(token, 'GET', API.events(slug, pageStart));
      if (answer.status !== 200) return stop();
      const list = answerAs<EventListView>(answer.body);
      for (const item of records(list.data)) {
        const row = eventRow(item);
        if (row.seq <= after) continue;
        after = row.seq;
        send('webhook', row, row.seq);
      }
      const next = str(list.nextCursor);
      if (!next || closed) return;
      pageStart = next;
    }
  };
  const pump = (): void => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    void (async () => {
      do {
        again = false;
        await drain().catch(stop);
      } while (again && !closed);
      busy = false;
    })();
  };

  const unsubscribe = source.onWebhook((eventSlug) => {
    if (eventSlug === slug || eventSlug === null) pump();
  });
  const unlisten = source.runner.listen(slug, (news) => send('certification', news));
  if (pageSawCertifying && source.runner.progress(slug) === undefined)
    send('certification', { state: 'finished', ok: true, text: 'the certification has ended' });
  const unhook = source.onEnd(() => stop());
  const heartbeat = setInterval(() => (source.live() ? res.write(': still here\n\n') : stop()), HEARTBEAT_MS);
  heartbeat.unref();
  function stop(): void {
    if (closed) return;
    closed = true;
    unsubscribe();
    unlisten();
    unhook();
    clearInterval(heartbeat);
    res.end();
  }
  res.on('close', stop);
  pump();
}
