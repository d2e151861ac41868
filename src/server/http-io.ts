import type { IncomingMessage, ServerResponse } from 'node:http';
import { sanitizeTerminalText } from '../util/terminal.js';

/** Error codes the core answers with; the documented ones of the contract (Errors). */
export type CoreErrorCode = 'INVALID_ARGUMENT' | 'UNAUTHORIZED' | 'NOT_FOUND' | 'CONFLICT' | 'INTERNAL_ERROR';

export interface ErrorBody {
  code: CoreErrorCode;
  message: string;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendText(res, status, JSON.stringify(body), headers);
}

/** Answer with JSON already serialized (a constant answer is serialized once, not per request). */
export function sendText(
  res: ServerResponse,
  status: number,
  json: string,
  headers: Record<string, string> | undefined = undefined,
): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
    ...headers,
  });
  res.end(json);
}

export function sendError(
  res: ServerResponse,
  status: number,
  code: CoreErrorCode,
  message: string,
  closeConnection = false,
  headers: Record<string, string> = {},
): void {
  const body: ErrorBody = { code, message };
  sendJson(res, status, body, closeConnection ? { ...headers, connection: 'close' } : headers);
}

/** True for application/json and application/*+json, with or without parameters. */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  if (value === 'application/json') return true;
  const media = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return media === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(media);
}

/** Untrusted text for a one-line log entry or message: control and bidi characters escaped, bounded length. */
export function logSafe(value: unknown, max = 80): string {
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '-' : JSON.stringify(value);
  return sanitizeTerminalText(text.length > max ? `${text.slice(0, max)}…` : text, { oneLine: true });
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
