import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Contract } from '../contract/contract.js';
import type { WebhookInbox } from '../model/webhooks.js';
import type { LogIo } from './append-log.js';
import { CONNECTION_CHECK_INTERVAL_MS, guardConnections } from './connection-guard.js';
import { ListenError, PortInUseError } from './errors.js';
import type { EventCursor } from './event-pages.js';
import { sendError } from './http-io.js';
import { InflightBudget, type IngestLimits, resolveLimits } from './limits.js';
import { RateGate } from './rate-gate.js';
import { type Route, RouteTable, route } from './route-table.js';
import { handleWebhook, type WebhookRouteDeps } from './webhook-route.js';
import { type EventPage, WebhookStore } from './webhook-store.js';

export const API_PREFIX = '/api/v1';
/** Signature diagnoses and rejection log lines per second; beyond them a flood costs little. */
const DIAGNOSES_PER_SECOND = 20;
const REJECTION_LINES_PER_SECOND = 20;

export interface CoreServerOptions {
  host: string;
  /** 0 = a free port. */
  port: number;
  /**
   * Where accepted events are logged. Absent: a temporary `provcert-run-*` directory, removed at close
   * (the run's receiver).
   */
  dataDir?: string;
  contract: Contract;
  /** The webhook secret of the provider with this slug; undefined = unknown slug (404 before the body is read). */
  secretFor(slug: string): string | undefined;
  /** The secret a rotation replaced for a slug (serve's registered providers); absent = no rotation support. */
  previousSecretFor?: WebhookRouteDeps['previousSecretFor'];
  /** Serve the slugless legacy route (default true); its events are verified with the secret of the provider they name. */
  legacyRoute?: boolean;
  /** Resource limits; unset ones take DEFAULT_LIMITS. */
  limits?: Partial<IngestLimits>;
  /** One line per event; never contains secrets. */
  log?: (line: string) => void;
  /** The setting named in the "port in use" message (the cli shows its flag); default webhookPort. */
  portSetting?: string;
  /** More lines for the route table, after the webhook routes (the serve command's core routes). */
  routes?: readonly Route[];
  /** File operations of the event logs (tests simulate a full disk). */
  logIo?: LogIo;
}

export interface CoreServer extends WebhookInbox {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** Method and path pattern of every route the server answers, in table order. */
  readonly routes: RouteTable['routes'];
  /** One page of a provider's received webhooks (GET …/events), read from disk. */
  events(slug: string, cursor?: EventCursor, limit?: number): Promise<EventPage>;
  /** Aborted when close() is called (long polls of GET …/events answer at once). */
  readonly closing: AbortSignal;
  close(): Promise<void>;
}

/** The webhook receiver's lines of the route table. */
function webhookRoutes(deps: WebhookRouteDeps): Route[] {
  const postOnly = {
    wrongMethod: (method: string): string => `${method} is not supported on /api/v1/webhooks; use POST`,
  };
  return [
    route(
      'POST',
      '/api/v1/webhooks/:providerSlug',
      ({ req, res, params }) => handleWebhook(req, res, params.providerSlug, deps),
      postOnly,
    ),
    route('POST', '/api/v1/webhooks', ({ req, res }) => handleWebhook(req, res, null, deps), postOnly),
  ];
}

/**
 * Node's own status line for a client error (lib/_http_server.js): the request timed out, its headers were too
 * large, or it was malformed.
 */
function clientErrorStatus(code: string | undefined): string {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return '408 Request Timeout';
  if (code === 'HPE_HEADER_OVERFLOW') return '431 Request Header Fields Too Large';
  return '400 Bad Request';
}

/** Start the embedded core: the webhook receiver, plus any extra routes. `run` and `serve` share it. */
export async function startCoreServer(options: CoreServerOptions): Promise<CoreServer> {
  const ephemeral = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'provcert-run-')));
  const removeEphemeral = (): Promise<void> =>
    ephemeral ? rm(dataDir, { recursive: true, force: true }) : Promise.resolve();
  let store: WebhookStore;
  try {
    store = await WebhookStore.open(dataDir, options.logIo ? { io: options.logIo } : {});
  } catch (e) {
    await removeEphemeral();
    throw e;
  }
  const limits = resolveLimits(options.limits);
  const deps: WebhookRouteDeps = {
    contract: options.contract,
    store,
    secretFor: options.secretFor,
    ...(options.previousSecretFor ? { previousSecretFor: options.previousSecretFor } : {}),
    legacyRoute: options.legacyRoute ?? true,
    limits,
    budget: new InflightBudget(limits.maxInflightBytes),
    diagnoses: new RateGate(DIAGNOSES_PER_SECOND),
    rejectionLines: new RateGate(REJECTION_LINES_PER_SECOND),
    // No logger: the lines are not even composed.
    ...(options.log ? { log: options.log } : {}),
  };
  const table = new RouteTable([...webhookRoutes(deps), ...(options.routes ?? [])]);

  const server = createServer({ connectionsCheckingInterval: CONNECTION_CHECK_INTERVAL_MS }, (req, res) => {
    void table.dispatch(req, res).catch(() => {
      // A bug in a handler must not take the server down; the details stay out of the answer.
      sendError(res, 500, 'INTERNAL_ERROR', 'unexpected server error', true);
    });
  });
  guardConnections(server, limits);
  // A request that timed out, or a malformed or oversized request line/header, gets node's own status (408, 431,
  // 400) and the socket is closed: a browser retries a 408 on a reused connection instead of showing an error.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (socket.writable)
      socket.end(`HTTP/1.1 ${clientErrorStatus(error.code)}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    socket.destroy();
  });

  try {
    await listen(server, options.host, options.port);
  } catch (e) {
    await store.close();
    await removeEphemeral();
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    if (code === 'EADDRINUSE') throw new PortInUseError(options.port, options.portSetting ?? 'webhookPort');
    throw new ListenError(options.host, options.port, code);
  }
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${hostForUrl}:${port}`;
  const urlFor = (slug: string): string => `${url}${API_PREFIX}/webhooks/${encodeURIComponent(slug)}`;

  let closing: Promise<void> | undefined;
  const closingSignal = new AbortController();
  return {
    url,
    port,
    dataDir,
    routes: table.routes,
    urlFor,
    all: () => store.all(),
    waitFor: (predicate, timeoutMs, signal) => store.waitFor(predicate, timeoutMs, signal),
    subscribe: (listener) => store.subscribe(listener),
    events: (slug, cursor, limit) => store.page(slug, cursor, limit),
    closing: closingSignal.signal,
    close: () => {
      closingSignal.abort();
      return (closing ??= shutdown(server, store).finally(removeEphemeral));
    },
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
