import type { IncomingMessage, ServerResponse } from 'node:http';

/** Error codes the core answers with; the documented ones of the contract (Errors). */
export type CoreErrorCode = 'INVALID_ARGUMENT' | 'UNAUTHORIZED' | 'NOT_FOUND' | 'CONFLICT' | 'INTERNAL_ERROR';

export interface ErrorBody {
  code: CoreErrorCode;
  message: string;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendError(res: ServerResponse, status: number, code: CoreErrorCode, message: string, closeConnection = false, headers: Record<string, string> = {}): void {
  const body: ErrorBody = { code, message };
  sendJson(res, status, body, closeConnection ? { ...headers, connection: 'close' } : headers);
}

/** True for application/json and application/*+json, with or without parameters. */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const media = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return media === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(media);
}

export type BodyOutcome =
  | { ok: true; body: Buffer }
  | { ok: false; status: 400 | 408 | 413; message: string };

/**
 * Read a request body with a size cap and an overall deadline. Over the cap it stops reading at once
 * (nothing more is buffered); the caller answers and the connection is closed.
 */
export function readBody(req: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<BodyOutcome> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    return Promise.resolve({ ok: false, status: 413, message: `body of ${declared} bytes exceeds the limit of ${maxBytes} bytes` });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (outcome: BodyOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      if (!outcome.ok) req.pause();
      resolve(outcome);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        finish({ ok: false, status: 413, message: `body exceeds the limit of ${maxBytes} bytes` });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish({ ok: true, body: Buffer.concat(chunks, size) });
    const onError = (): void => finish({ ok: false, status: 400, message: 'the request body could not be read (connection error)' });
    const onAborted = (): void => finish({ ok: false, status: 400, message: 'the sender aborted the request body' });
    const timer = setTimeout(
      () => finish({ ok: false, status: 408, message: `the request body did not arrive within ${timeoutMs} ms` }),
      timeoutMs,
    );
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

/** Sanitize untrusted text for a one-line log entry: no control characters, bounded length. */
export function logSafe(value: unknown, max = 80): string {
  const text = typeof value === 'string' ? value : value === undefined ? '-' : JSON.stringify(value);
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > max ? clean.slice(0, max) + '…' : clean;
}

/** How long a refused sender gets to read its answer before the connection is cut. */
const REFUSED_BODY_GRACE_MS = 1_000;

/**
 * After answering a request whose body was refused unread, stop reading the socket (node would
 * otherwise read and discard the rest: a 1 MiB flood would cost 1 MiB of reading per request) and cut
 * the connection once the sender had time to read the answer.
 */
export function dropUnreadBody(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  const socket = req.socket;
  const cut = (): void => {
    socket.pause();
    req.pause();
    setTimeout(() => socket.destroy(), REFUSED_BODY_GRACE_MS).unref();
  };
  if (res.writableFinished) cut();
  else res.once('finish', cut);
}
