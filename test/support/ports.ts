import { createServer, type Server } from 'node:net';

function listening(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** Ports held on 127.0.0.1 until `release`: while held, no server of this machine that asks for port 0 gets one. */
export interface ReservedPorts {
  ports: number[];
  release(): Promise<void>;
}

/**
 * `count` distinct free ports, held until released. Servers started on port 0 while they are held (a provider whose
 * webhook URL names a reserved port, say) cannot be given one of them; released, they are free for the servers that
 * must be told their port in advance.
 */
export async function reservePorts(count: number): Promise<ReservedPorts> {
  const servers = await Promise.all(Array.from({ length: count }, listening));
  const ports = servers.map((s) => {
    const address = s.address();
    return typeof address === 'object' && address ? address.port : 0;
  });
  const release = async (): Promise<void> => {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  };
  return { ports, release };
}

/**
 * `count` distinct ports free on 127.0.0.1 right now, for servers whose addresses must be known before they start.
 * All are held together before any is released: ports taken one after the other can be the same port, since each
 * is free again once its probe closes.
 */
export async function freePorts(count: number): Promise<number[]> {
  const reserved = await reservePorts(count);
  await reserved.release();
  return reserved.ports;
}

/** A port free on 127.0.0.1 right now, for a server whose address must be known before it starts. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port ?? 0;
}
