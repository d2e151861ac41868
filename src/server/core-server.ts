import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Contract } from '../spec/contract.js';
import { ListenError, PortInUseError } from './errors.js';
import { sendError } from './http-io.js';
import type { WebhookInbox, ReceivedWebhook } from './types.js';
import { handleWebhook } from './webhook-route.js';
import { WebhookStore } from './webhook-store.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
export const API_PREFIX = '/api/v1';

/** Extra routes under /api/v1 (the serve command's core routes). Returns false when it does not own the path. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, path: string, url: URL) => Promise<boolean>;

export interface CoreServerOptions {
  host: string;
  /** 0 = a free port. */
  port: number;
  dataDir: string;
  contract: Contract;
  /** Secret for a slug (null = legacy route). undefined = unknown slug → 404. */
  secretFor(slug: string | null): string | undefined;
  /** Default 1 MiB. */
  maxBodyBytes?: number;
  /** Default 10 s. */
  bodyTimeoutMs?: number;
  /** One line per event; never contains secrets. */
  log?: (line: string) => void;
  /** Flag named in the "port in use" message; default --webhook-port. */
  portFlag?: string;
  routes?: RouteHandler;
}

export interface CoreServer extends WebhookInbox {
  readonly url: string;
  readonly port: number;
  /** Reloaded events plus this process's requests, optionally for one slug (GET …/events). */
  history(slug?: string): ReceivedWebhook[];
  close(): Promise<void>;
}

const WEBHOOK_ROUTE = /^\/api\/v1\/webhooks(?:\/([^/]+))?\/?$/;

/** Start the embedded core: the webhook receiver, plus any extra routes. */
export async function startCoreServer(options: CoreServerOptions): Promise<CoreServer> {
  const store = await WebhookStore.open(options.dataDir);
  const log = options.log ?? ((): void => undefined);
  const deps = {
    contract: options.contract,
    store,
    secretFor: options.secretFor,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    log,
  };

  const server = createServer((req, res) => {
    void route(req, res).catch(() => {
      // A bug in a handler must not take the server down; the details stay out of the answer.
      sendError(res, 500, 'INTERNAL_ERROR', 'unexpected server error');
    });
  });
  // Idle keep-alive sockets must not hold close() up.
  server.keepAliveTimeout = 5_000;

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The hot webhook route needs only the path; a URL object is built for the other routes only.
    const raw = req.url ?? '/';
    const query = raw.indexOf('?');
    const path = query === -1 ? raw : raw.slice(0, query);
    const webhook = WEBHOOK_ROUTE.exec(path);
    if (webhook) {
      if (req.method !== 'POST') return sendError(res, 405, 'NOT_FOUND', `${req.method ?? ''} is not supported on ${path}; use POST`, true);
      let slug: string | null = null;
      if (webhook[1] !== undefined) {
        try {
          slug = decodeURIComponent(webhook[1]);
        } catch {
          return sendError(res, 400, 'INVALID_ARGUMENT', 'the provider slug in the path is not valid percent-encoding', true);
        }
      }
      return handleWebhook(req, res, slug, deps);
    }
    if (options.routes) {
      const url = new URL(raw, 'http://core.invalid');
      if (await options.routes(req, res, url.pathname, url)) return;
    }
    sendError(res, 404, 'NOT_FOUND', `no route ${req.method ?? ''} ${path}`, true);
  }

  try {
    await listen(server, options.host, options.port);
  } catch (e) {
    await store.close();
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    if (code === 'EADDRINUSE') throw new PortInUseError(options.port, options.portFlag ?? '--webhook-port');
    throw new ListenError(options.host, options.port, code);
  }
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${hostForUrl}:${port}`;
  const urlFor = (slug: string): string => `${url}${API_PREFIX}/webhooks/${encodeURIComponent(slug)}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    urlFor,
    all: () => store.all(),
    waitFor: (predicate, timeoutMs, signal) => store.waitFor(predicate, timeoutMs, signal),
    history: (slug) => store.history(slug),
    close: () => (closing ??= shutdown(server, store)),
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error): void => reject(e);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

async function shutdown(server: Server, store: WebhookStore): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // In-flight requests get a moment to finish (their events are committed before answering).
  const force = setTimeout(() => server.closeAllConnections(), 2_000);
  await closed;
  clearTimeout(force);
  await store.close();
}
