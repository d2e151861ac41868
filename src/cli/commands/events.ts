import { setTimeout as sleep } from 'node:timers/promises';
import { UsageError } from '../../model/errors.js';
import { Redactor } from '../../util/redact.js';
import { jsonTerminalSafe, sanitizeTerminalText } from '../../util/terminal.js';
import type { CommandContext } from '../command.js';
import {
  apiBase,
  type CoreAnswer,
  coreMessage,
  eventsCredential,
  getWith,
  unreachable,
} from '../events/core-client.js';
import { type CoreEvent, type EventFilter, eventLine, matches, parseStatuses } from '../events/event-filter.js';
import { EXIT } from '../io.js';

/** Seconds the core holds one long poll; a follower asks again at once. */
const HOLD_SECONDS = 25;
const RETRY_MS = 1_000;
const PAGE = 1_000;

export interface EventsOptions {
  core?: string;
  follow?: boolean;
  json?: boolean;
  status?: string[];
  type?: string[];
  verified?: boolean;
  unverified?: boolean;
  adminTokenEnv?: string;
  /** A run's receiver: sign with the webhook secret of this variable (true: SERVICE_WEBHOOK_SECRET). */
  secretEnv?: string | boolean;
}

interface EventList {
  data: CoreEvent[];
  nextCursor?: string;
}

const isList = (b: unknown): b is EventList =>
  typeof b === 'object' && b !== null && Array.isArray((b as { data?: unknown }).data);

function filterOf(opts: EventsOptions): EventFilter {
  if (opts.verified && opts.unverified) throw new UsageError('--verified and --unverified exclude each other');
  return {
    statuses: parseStatuses(opts.status ?? []),
    types: (opts.type ?? []).map((t) => t.trim()).filter((t) => t !== ''),
    ...(opts.verified ? { verified: true } : opts.unverified ? { verified: false } : {}),
  };
}

/** Where the follower is in the listing: the page it reads from and the last seq it has seen. */
interface Position {
  cursor?: string;
  after: number;
}

/**
 * `provcert events SLUG`: a core's (or, with `--secret-env`, a running `provcert run`'s receiver's) received webhook
 * requests for one provider, with their signature result, answered status and reason; `--follow` keeps tailing
 * (a long poll on GET …/events?after=&wait=) until Ctrl-C.
 */
export async function execute({ io, signal }: CommandContext, slug: string, opts: EventsOptions): Promise<number> {
  const filter = filterOf(opts);
  const credential = eventsCredential(io.env, opts);
  const { server } = credential;
  const base = apiBase(opts.core);
  // The server masks its answers; this masks once more what the command itself knows (what it sends).
  const redactor = new Redactor(credential.masked);
  /** What the core said, as one safe line: a hostile or echoing core's text never carries the token or a control. */
  const said = (text: string): string => sanitizeTerminalText(redactor.text(text), { oneLine: true });
  const show = (e: CoreEvent): void => {
    if (!matches(e, filter)) return;
    const line = opts.json
      ? jsonTerminalSafe(JSON.stringify(e))
      : sanitizeTerminalText(eventLine(e), { oneLine: true });
    io.stdout.write(`${redactor.text(line)}\n`);
  };
  const listUrl = (p: Position, hold: number): string => {
    const q = new URLSearchParams({ limit: String(PAGE), after: String(p.after) });
    if (p.cursor) q.set('cursor', p.cursor);
    if (hold > 0) q.set('wait', String(hold));
    return `${base}/providers/${encodeURIComponent(slug)}/events?${q}`;
  };
  const read = async (p: Position, hold: number, print: boolean): Promise<'more' | 'end'> => {
    const answer: CoreAnswer = await getWith(listUrl(p, hold), credential.headers, signal, hold);
    if (answer.status === 401)
      throw new UsageError(said(`the ${server} refused ${credential.refused}: ${coreMessage(answer)}`));
    if (answer.status === 404)
      throw new UsageError(said(`the ${server} knows no provider "${slug}": ${coreMessage(answer)}`));
    if (answer.status !== 200 || !isList(answer.body))
      throw new Error(said(`the ${server} answered ${coreMessage(answer)}`));
    for (const e of answer.body.data) {
      if (print) show(e);
      p.after = Math.max(p.after, e.seq);
    }
    if (answer.body.nextCursor) p.cursor = answer.body.nextCursor;
    return answer.body.nextCursor ? 'more' : 'end';
  };

  const problem = (e: unknown): string =>
    (e as Error).message?.startsWith(`the ${server} answered`) ? (e as Error).message : unreachable(e, base, server);
  const position: Position = { after: 0 };
  try {
    // Without --follow: the whole listing. With it: what arrives from now on (the listing so far is skipped).
    while ((await read(position, 0, !opts.follow)) === 'more');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    io.stderr.write(`provcert: ${said(problem(e))}\n`);
    return EXIT.failed;
  }
  if (!opts.follow) return EXIT.ok;
  io.stderr.write(`Following the events of ${slug} on ${base} (Ctrl-C to stop)\n`);
  let lost = false;
  while (!signal.aborted) {
    try {
      await read(position, HOLD_SECONDS, true);
      if (lost) io.stderr.write(`provcert: the ${server} answers again\n`);
      lost = false;
    } catch (e) {
      if (signal.aborted) break;
      if (e instanceof UsageError) throw e;
      if (!lost) io.stderr.write(`provcert: ${said(problem(e))}; retrying every second\n`);
      lost = true;
      await sleep(RETRY_MS, undefined, { signal }).catch(() => undefined);
    }
  }
  return EXIT.ok;
}
