import { createHmac, type Hmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { InflightBudget } from './limits.js';

export type SignedBodyOutcome =
  | { ok: true; body: Buffer /** HMAC-SHA256 of the body, when a secret was given. */; digest?: Buffer }
  | { ok: false; status: 400 | 408 | 413 | 503; message: string };

export interface SignedBodyLimits {
  maxBytes: number;
  timeoutMs: number;
  budget: InflightBudget;
}

/**
 * Read a request body under a size cap, a deadline and the server-wide in-flight byte budget, computing
 * the HMAC while the bytes stream in. Over the declared or actual cap it stops at once (413); when the
 * budget is spent it stops too (503). The caller answers, closes the connection and calls `release`.
 */
export function readSignedBody(
  req: IncomingMessage,
  secret: string | undefined,
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
    const hmac: Hmac | undefined = secret === undefined ? undefined : createHmac('sha256', secret);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: SignedBodyOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      if (!result.ok) {
        // Nothing more is read or kept; the answer closes the connection.
        req.pause();
        chunks.length = 0;
        release();
      }
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
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
      hmac?.update(chunk);
      chunks.push(chunk);
    };
    const onEnd = (): void =>
      finish({ ok: true, body: Buffer.concat(chunks, size), ...(hmac ? { digest: hmac.digest() } : {}) });
    const onError = (): void =>
      finish({ ok: false, status: 400, message: 'the request body could not be read (connection error)' });
    const onAborted = (): void => finish({ ok: false, status: 400, message: 'the sender aborted the request body' });
    const timer = setTimeout(
      () =>
        finish({ ok: false, status: 408, message: `the request body did not arrive within ${limits.timeoutMs} ms` }),
      limits.timeoutMs,
    );
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
  return { outcome, release };
}

/** Core-route bodies are read only after the bearer token was checked: caps and deadline, no shared budget. */
const UNSHARED = new InflightBudget(Number.POSITIVE_INFINITY);

/** Read an unsigned body (the core routes) through the same reader, released once read. */
export async function readBody(req: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<SignedBodyOutcome> {
  const { outcome, release } = readSignedBody(req, undefined, { maxBytes, timeoutMs, budget: UNSHARED });
  const result = await outcome;
  release();
  return result;
}
