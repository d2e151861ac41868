import { request } from 'node:http';
import { connect, type Socket } from 'node:net';

export type Outcome =
  | { status: number; headers: Record<string, string | string[] | undefined>; text: string }
  | { status: 'reset' };

/**
 * A hostile sender: posts `body` (or `declaredLength` without sending it all) and reports the answer, or
 * 'reset' when the server cut the connection first (expected for bodies it refuses to read).
 */
export function hostilePost(
  url: string,
  options: { headers?: Record<string, string>; body?: Buffer; chunked?: boolean; declaredLength?: number },
): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (o: Outcome): void => {
      if (settled) return;
      settled = true;
      resolve(o);
    };
    const body = options.body ?? Buffer.alloc(0);
    const length = options.chunked ? {} : { 'content-length': String(options.declaredLength ?? body.length) };
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...length, ...options.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          done({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', () => done({ status: 'reset' }));
      },
    );
    req.on('error', () => done({ status: 'reset' }));
    if (options.declaredLength !== undefined && options.declaredLength > body.length) {
      req.write(body); // the rest never comes: the server must answer without it
      return;
    }
    req.end(body);
  });
}

/** A slowloris connection: a request line and part of the headers, then nothing. */
export function halfSentHeaders(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('POST /api/v1/webhooks/demo HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
      resolve(socket);
    });
    socket.on('error', () => undefined); // the server may drop it: that is the point
    socket.once('error', reject);
  });
}

/** Heap in use after a full collection when the runtime exposes gc, else as is. */
export function heapUsed(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}
