import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { IngestLimits } from './limits.js';

/** How often node:http checks headersTimeout/requestTimeout (its default, 30 s, lets slow senders linger). */
export const CONNECTION_CHECK_INTERVAL_MS = 1_000;

/**
 * Keep slow or idle senders from starving genuine ones: node:http timeouts, a header-count cap, and a
 * connection cap that, when reached, drops the oldest connection with no request in progress (a
 * half-sent header or an idle keep-alive) to make room, rather than refusing the newcomer.
 */
export function guardConnections(server: Server, limits: IngestLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxHeadersCount = limits.maxHeadersCount;
  // Hard backstop only: below it, eviction keeps the count at the cap.
  server.maxConnections = limits.maxConnections * 2;

  const open = new Set<Socket>();
  // Each connection's latest response: read only at the cap (no listener per request to keep it current).
  const latest = new WeakMap<Socket, ServerResponse>();
  server.on('connection', (socket: Socket) => {
    if (open.size >= limits.maxConnections) {
      const idle = oldestIdle(open, latest);
      if (idle) {
        open.delete(idle);
        idle.destroy();
      } else {
        socket.destroy();
        return;
      }
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => latest.set(req.socket, res));
}

/** The oldest connection with no request in progress: none yet, or its latest answer fully sent. */
function oldestIdle(open: Set<Socket>, latest: WeakMap<Socket, ServerResponse>): Socket | undefined {
  for (const socket of open) {
    const res = latest.get(socket);
    if (res === undefined || res.writableFinished) return socket;
  }
  return undefined;
}
