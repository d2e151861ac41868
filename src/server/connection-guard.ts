import type { Server } from 'node:http';
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
  const busy = new WeakSet<Socket>();
  server.on('connection', (socket: Socket) => {
    if (open.size >= limits.maxConnections) {
      const idle = oldestIdle(open, busy);
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
  server.on('request', (req, res) => {
    const socket = req.socket;
    busy.add(socket);
    res.once('close', () => busy.delete(socket));
  });
}

function oldestIdle(open: Set<Socket>, busy: WeakSet<Socket>): Socket | undefined {
  for (const socket of open) if (!busy.has(socket)) return socket;
  return undefined;
}
