import { createHmac } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import type { Diagnosis, DiagnosisId } from '../../src/doctor/types.js';
import type { AuthMethod } from '../../src/model/contract-constants.js';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

async function listen(
  server: ReturnType<typeof createHttpServer>,
  scheme: 'http' | 'https',
  host: string,
): Promise<TestServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${scheme}://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const startServer = (handler: Handler): Promise<TestServer> =>
  listen(createHttpServer(handler), 'http', '127.0.0.1');

/** Servers started through `serve` are closed after each test of the file that calls this. */
export function serveEachTest(): (handler: Handler) => Promise<TestServer> {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async (handler) => {
    const server = await startServer(handler);
    servers.push(server);
    return server;
  };
}

export const startHttpsServer = (
  handler: Handler,
  tls: { key: string; cert: string },
  host: string,
): Promise<TestServer> =>
  listen(createHttpsServer(tls, handler) as unknown as ReturnType<typeof createHttpServer>, 'https', host);

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Does the request carry `secret` the way `method` sends it (GET: HMAC over the empty body)? */
export function authenticates(req: IncomingMessage, method: AuthMethod, secret: string): boolean {
  switch (method) {
    case 'API_KEY':
      return req.headers['x-provider-api-key'] === secret;
    case 'BEARER_TOKEN':
      return req.headers.authorization === `Bearer ${secret}`;
    case 'HMAC_SIGNATURE':
      return req.headers['x-service-signature'] === createHmac('sha256', secret).update('').digest('hex');
  }
}

const ROUTE_BODIES: Record<string, unknown> = {
  '/provider-info': {
    id: 'p1',
    slug: 'demo',
    name: 'Demo',
    status: 'SANDBOX',
    type: 'DELIVERY',
    capabilities: ['METADATA', 'HEALTH', 'CATALOG'],
  },
  '/health': { status: 'HEALTHY', latencyMs: 1, timestamp: new Date(0).toISOString() },
  '/catalog': { providerSlug: 'demo', categories: [], offerings: [] },
};

/** A minimal provider API under `prefix`, protected by `method` with `secret`; 404 JSON elsewhere. */
export function providerApi(options: {
  prefix?: string;
  method: AuthMethod;
  secret: string;
  delayMs?: Record<string, number>;
}): Handler {
  const prefix = options.prefix ?? '';
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const route = path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
    const body = route === undefined ? undefined : ROUTE_BODIES[route];
    if (body === undefined) return json(res, 404, { code: 'NOT_FOUND', message: `no route ${path}` });
    if (!authenticates(req, options.method, options.secret))
      return json(res, 401, { code: 'UNAUTHORIZED', message: 'wrong credential' });
    const delay = options.delayMs?.[route ?? ''] ?? 0;
    setTimeout(() => json(res, 200, body), delay);
  };
}

export function byId(findings: readonly Diagnosis[], id: DiagnosisId): Diagnosis {
  const found = findings.find((f) => f.id === id);
  if (!found) throw new Error(`no finding ${id} in ${findings.map((f) => f.id).join(', ')}`);
  return found;
}
