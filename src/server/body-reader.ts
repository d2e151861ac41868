import type { IncomingMessage } from 'node:http';
import { InflightBudget } from './limits.js';

export type SignedBodyOutcome =
  | { ok: true; body: Buffer }
  | { ok: false; status: 400 | 408 | 413 | 503; message: string };

export interface SignedBodyLimits {
  maxBytes: number;
  timeoutMs: number;
  budget: InflightBudget;
}

const EMPTY = Buffer.alloc(0);

/** A body read's deadline: checked by one shared sweep rather than a timer armed and cleared per request. */
interface Deadline {
  at: number;
  expire(): void;
}
const deadlines = new Set<Deadline>();
let sweeper: NodeJS.Timeout | undefined;
let sweepEveryMs = Number.POSITIVE_INFINITY;

/** The sweep runs every quarter of the shortest deadline in use (10–250 ms): a late body is cut at most that late. */
function watchDeadline(deadline: Deadline, timeoutMs: number): void {
  deadlines.add(deadline);
  const every = Math.min(250, Math.max(10, Math.floor(timeoutMs / 4)));
  if (sweeper !== undefined && every >= sweepEveryMs) return;
  if (sweeper !== undefined) clearInterval(sweeper);
  sweepEveryMs = every;
  sweeper = setInterval(sweep, every);
  sweeper.unref();
}

function sweep(): void {
  const now = performance.now();
  for (const deadline of deadlines) {
    if (deadline.at <= now) {
      deadlines.delete(deadline);
      deadline.expire();
    }
  }
  if (deadlines.size === 0 && sweeper !== undefined) {
    clearInterval(sweeper);
    sweeper = undefined;
    sweepEveryMs = Number.POSITIVE_INFINITY;
  }
}

/**
 * Read a request body under a size cap, a deadline and the server-wide in-flight byte budget (the caller
 * verifies its signature over the whole body, kept anyway). Over the declared or actual cap it stops at once (413); when the
 * budget is spent it stops too (503). The caller answers, closes the connection and calls `release`.
 */
export function readSignedBody(
  req: IncomingMessage,
  limits: SignedBodyLimits,
): { outcome: Promise<SignedBodyOutcome>; release(): void } {
  let taken = 0;
  const release = (): void => {
    limits.budget.give(taken);
    taken = 0;
  };
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    return {
      outcome: Promise.resolve({
        ok: false,
        status: 413,
        message: `body of ${declared} bytes exceeds the limit of ${limits.maxBytes} bytes`,
      }),
      release,
    };
  }
  const outcome = new Promise<SignedBodyOutcome>((resolve) => {
    // Small events arrive in one chunk: kept as is, no copy.
    let first: Buffer | undefined;
    let more: Buffer[] | undefined;
    let size = 0;
    let settled = false;
    const finish = (result: SignedBodyOutcome): void => {
      if (settled) return;
      settled = true;
      deadlines.delete(watch);
      // The listeners stay attached: once settled they do nothing, and removing them costs more than they do.
      if (!result.ok) {
        // Nothing more is read or kept; the answer closes the connection.
        req.pause();
        first = undefined;
        more = undefined;
        release();
      }
      resolve(result);
    };
    const watch: Deadline = {
      at: performance.now() + limits.timeoutMs,
      expire: () =>
        finish({ ok: false, status: 408, message: `the request body did not arrive within ${limits.timeoutMs} ms` }),
    };
    req.on('data', (chunk: Buffer): void => {
      if (settled) return;
      size += chunk.length;
      if (size > limits.maxBytes)
        return finish({ ok: false, status: 413, message: `body exceeds the limit of ${limits.maxBytes} bytes` });
      if (!limits.budget.tryTake(chunk.length))
        return finish({
          ok: false,
          status: 503,
          message: 'the server is receiving too much data at once; retry later',
        });
      taken += chunk.length;
      if (first === undefined) first = chunk;
      else (more ??= [first]).push(chunk);
    });
    req.on('end', (): void => {
      const body = more ? Buffer.concat(more, size) : (first ?? EMPTY);
      finish({ ok: true, body });
    });
    req.on('error', () =>
      finish({ ok: false, status: 400, message: 'the request body could not be read (connection error)' }),
    );
    req.on('aborted', () => finish({ ok: false, status: 400, message: 'the sender aborted the request body' }));
    watchDeadline(watch, limits.timeoutMs);
  });
  return { outcome, release };
}

/** Core-route bodies are read only after the bearer token was checked: caps and deadline, no shared budget. */
const UNSHARED = new InflightBudget(Number.POSITIVE_INFINITY);

/** Read an unsigned body (the core routes) through the same reader, released once read. */
export async function readBody(req: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<SignedBodyOutcome> {
  const { outcome, release } = readSignedBody(req, { maxBytes, timeoutMs, budget: UNSHARED });
  const result = await outcome;
  release();
  return result;
}
