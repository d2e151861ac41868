import { Agent, type Dispatcher, request as undiciRequest } from 'undici';
import type { Exchange } from '../model/exchange.js';
import { type SpellSetting, spellAsConfigKey } from '../model/setting-speller.js';
import { MASK, type Redactor } from '../util/redact.js';
import { authHeadersFor } from './auth.js';
import { classifyBody, contentCoding, jsonDeeperThan, MAX_JSON_DEPTH } from './body.js';
import { linkOnBaseHost } from './link.js';
import type {
  HttpOutcome,
  ProviderClient,
  ProviderClientOptions,
  ProviderRequest,
  TransportFailureKind,
} from './types.js';

/** Bodies kept as evidence are cut here; the full body is still parsed for checks. */
const EVIDENCE_BODY_LIMIT = 4096;

const truncate = (text: string): { body: string; truncated: boolean } =>
  text.length > EVIDENCE_BODY_LIMIT
    ? { body: `${text.slice(0, EVIDENCE_BODY_LIMIT)}…`, truncated: true }
    : { body: text, truncated: false };

function buildUrl(baseUrl: string, path: string, query: ProviderRequest['query']): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined) url.searchParams.set(key, String(value));
  return url.toString();
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * Longest wait for a TCP (and TLS) connection, apart from the request timeout: an address that drops
 * packets fails in seconds, naming the cause, instead of using up the whole request timeout.
 */
export const CONNECT_TIMEOUT_MS = 5_000;

/** How long an idle connection is kept for the next request: far below the 5 s keep-alive most servers keep. */
const IDLE_CONNECTION_MS = 1_000;

/** Map a transport error to a kind and a sentence that says what to do. */
function describeFailure(
  error: unknown,
  url: string,
  timeouts: { requestMs: number; connectMs: number },
  timedOut: boolean,
  spell: SpellSetting,
): { kind: TransportFailureKind; message: string } {
  const timeoutMs = timeouts.requestMs;
  if (timedOut)
    return {
      kind: 'timeout',
      message: `timed out after ${timeoutMs} ms waiting for ${url}: the address is not reachable or the backend is too slow (raise ${spell('timeout')} if it is just slow)`,
    };
  const e = error as { code?: string; cause?: { code?: string }; message?: string };
  const code = e.code ?? e.cause?.code ?? '';
  const host = new URL(url).host;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return { kind: 'dns', message: `the host ${host} could not be resolved (DNS): check the base URL's spelling` };
  if (code === 'ECONNREFUSED')
    return {
      kind: 'refused',
      message: `connection to ${host} refused: nothing listens there; is the provider backend running?`,
    };
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
    return { kind: 'reset', message: `the connection to ${host} was closed before a complete answer arrived` };
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT')
    return {
      kind: 'tls',
      message: `TLS to ${host} failed (${code}): the certificate is invalid, expired or for another host`,
    };
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    const why =
      'nothing answers at that address (wrong host or port, a firewall dropping packets, or not publicly reachable)';
    return { kind: 'timeout', message: `could not connect to ${host} within ${timeouts.connectMs} ms: ${why}` };
  }
  return { kind: 'network', message: `request to ${url} failed: ${code || e.message || 'network error'}` };
}

/**
 * The agent, seen by one request: undici tells the dispatch handler when the request's last byte was written
 * (`onRequestSent`), and `sent` is called then. Everything else passes through unchanged.
 */
function noticingSent(agent: Dispatcher, sent: () => void): Dispatcher {
  const dispatch: Dispatcher['dispatch'] = (opts, handler) => {
    const noticing = new Proxy(handler, {
      get(target, key) {
        if (key === 'onRequestSent')
          return () => {
            sent();
            return (target as { onRequestSent?: () => void }).onRequestSent?.();
          };
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return agent.dispatch(opts, noticing);
  };
  return { dispatch } as unknown as Dispatcher;
}

/** Read at most `limit` bytes; reports whether the body was larger. */
async function readCapped(
  body: Dispatcher.ResponseData['body'],
  limit: number,
): Promise<{ text: string; tooLarge: boolean; bytes: number }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > limit) {
      body.destroy();
      return { text: Buffer.concat(chunks).toString('utf8'), tooLarge: true, bytes };
    }
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), tooLarge: false, bytes };
}

/**
 * A request timer firing this much later than set means provcert's event loop was busy (its own work on another
 * answer), not that the provider was slow: the request then gets its full timeout once more.
 */
const LATE_TIMER_MS = 250;
/** How many times a request's timeout is given again for provcert's own delays: a bound on any one request. */
const MAX_EXTENSIONS = 3;

/** Shorter header values are not searched for in answers: they would match ordinary text. */
const MIN_SENT_VALUE = 16;

/**
 * The run's masker, plus the authentication header values this one request sent (a bearer scheme word aside),
 * raw and upper-cased: the run's masker knows the secrets, not each body's HMAC signature.
 */
function maskingSent(redactor: Redactor, sent: readonly string[]): Pick<Redactor, 'text' | 'headers'> {
  const values = sent
    .map((v) => v.replace(/^Bearer\s+/i, ''))
    .filter((v) => v.length >= MIN_SENT_VALUE)
    .flatMap((v) => [v, v.toUpperCase()]);
  if (values.length === 0) return redactor;
  const text = (t: string): string => values.reduce((out, v) => out.split(v).join(MASK), redactor.text(t));
  return {
    text,
    headers: (headers) => Object.fromEntries(Object.entries(redactor.headers(headers)).map(([k, v]) => [k, text(v)])),
  };
}

export interface HttpClientDeps {
  redactor: Redactor;
  now?: () => number;
  /** Default CONNECT_TIMEOUT_MS; never longer than the request timeout. */
  connectTimeoutMs?: number;
  /** Aborts requests in flight and refuses new ones (the run was interrupted). */
  signal?: AbortSignal;
  /** How a timeout's advice names the timeout setting (default: its config file key). */
  spell?: SpellSetting;
}

/** The outbound client: auth, per-request timeout, size cap, redirects reported, redacted evidence. */
export function createProviderClient(
  options: ProviderClientOptions,
  deps: HttpClientDeps,
): ProviderClient & { close(): Promise<void> } {
  const now = deps.now ?? (() => performance.now());
  const connectMs = Math.min(deps.connectTimeoutMs ?? CONNECT_TIMEOUT_MS, options.timeoutMs);
  // Idle connections are dropped after IDLE_CONNECTION_MS, well before a server's own keep-alive timeout (Node's is
  // 5 s): a request sent on a connection the server is closing at that moment fails with a reset nobody caused.
  const agent = new Agent({
    connections: 32,
    connect: { timeout: connectMs },
    keepAliveTimeout: IDLE_CONNECTION_MS,
    keepAliveMaxTimeout: IDLE_CONNECTION_MS,
  });
  // A new connection for each request (pipelining 0 keeps none open): the retry after a reset uses it.
  const fresh = new Agent({ connections: 4, connect: { timeout: connectMs }, pipelining: 0 });
  // One listener for the run (not one per request): an interrupt aborts every request in flight.
  const inFlight = new Set<AbortController>();
  const interrupt = (): void => {
    for (const controller of inFlight) controller.abort();
  };
  deps.signal?.addEventListener('abort', interrupt, { once: true });
  const { credential, ...publicOptions } = options;

  /**
   * A connection closed before any answer arrived is tried once more on a new connection, as browsers do: a kept-alive
   * connection the server was closing as the request left is not the provider's fault. Both attempts failing is.
   * Safe for every route: `POST /actions` carries its idempotency key, and the contract makes a retry harmless.
   */
  async function send(req: ProviderRequest): Promise<HttpOutcome> {
    const first = await sendOn(agent, req);
    if (first.kind !== 'failure' || first.failure !== 'reset' || first.exchange.response || deps.signal?.aborted)
      return first;
    const second = await sendOn(fresh, req);
    if (second.kind !== 'failure' || second.failure !== 'reset') return second;
    const message = `${second.message} (twice: provcert tried once more on a new connection)`;
    return { ...second, message, exchange: { ...second.exchange, failure: message } };
  }

  async function sendOn(dispatcher: Agent, req: ProviderRequest): Promise<HttpOutcome> {
    const link = req.link === undefined ? undefined : linkOnBaseHost(options.baseUrl, req.link);
    const url = link
      ? link.ok
        ? link.url.toString()
        : (req.link ?? '')
      : buildUrl(options.baseUrl, req.path, req.query);
    const body = req.rawBody ?? (req.json === undefined ? '' : JSON.stringify(req.json));
    // A customer's browser has no provider credential: a link is opened without one, whatever was asked.
    const auth = link ? { kind: 'none' as const } : (req.auth ?? { kind: 'configured' });
    const headers: Record<string, string> = {
      accept: link ? 'text/html, application/json;q=0.9, */*;q=0.8' : 'application/json',
      // provcert does not decompress answers (a compressed body is reported, never inflated: no bombs).
      'accept-encoding': 'identity',
      'user-agent': 'provcert',
      ...(req.method === 'POST' ? { 'content-type': 'application/json' } : {}),
      ...authHeadersFor(options.authMethod, credential, body, auth),
    };
    // What this request authenticated with: an answer that repeats it never shows it (a signature differs per body).
    const mask = maskingSent(deps.redactor, Object.values(authHeadersFor(options.authMethod, credential, body, auth)));
    const timeoutMs = req.timeoutMs ?? options.timeoutMs;
    const exchange: Exchange = {
      request: {
        method: req.method,
        url: deps.redactor.text(url),
        headers: deps.redactor.headers(headers),
        ...(body ? { body: deps.redactor.text(truncate(body).body) } : {}),
        auth: auth.kind,
        ...(auth.kind === 'sign-other-bytes' ? { signedBytes: deps.redactor.text(auth.bytes) } : {}),
        ...(auth.kind === 'near-miss' ? { nearMiss: { change: auth.change, target: auth.target } } : {}),
      },
      durationMs: 0,
    };
    const started = now();
    const failure = (kind: TransportFailureKind, message: string): HttpOutcome => {
      exchange.durationMs = Math.round(now() - started);
      exchange.failure = deps.redactor.text(message);
      return { kind: 'failure', failure: kind, message: exchange.failure, durationMs: exchange.durationMs, exchange };
    };
    if (deps.signal?.aborted)
      return failure('blocked', `not sent: the run was interrupted before ${req.method} ${req.path}`);
    if (link && !link.ok) return failure('blocked', `not opened: the link ${url} ${link.reason}`);
    if (link && req.method !== 'GET') return failure('blocked', 'not sent: a link is only opened with GET');
    const controller = new AbortController();
    let timedOut = false;
    // How long provcert's own work held the event loop past this request's deadline (issue 32): a 5 MB answer being
    // validated elsewhere in the run is not the provider's slowness. A timer that fires that late gives the request
    // its full timeout again (up to MAX_EXTENSIONS times); only a deadline met on time blames the provider.
    let busyMs = 0;
    let extensions = 0;
    const arm = (ms: number): NodeJS.Timeout => {
      const armedAt = performance.now();
      return setTimeout(() => {
        const late = performance.now() - armedAt - ms;
        if (late >= LATE_TIMER_MS && extensions < MAX_EXTENSIONS) {
          busyMs += Math.round(late);
          extensions++;
          timer = arm(timeoutMs);
          return;
        }
        timedOut = true;
        controller.abort();
      }, ms);
    };
    let timer = arm(timeoutMs);
    inFlight.add(controller);
    try {
      const res = await undiciRequest(url, {
        method: req.method,
        headers,
        ...(req.method === 'POST' ? { body } : {}),
        dispatcher: noticingSent(dispatcher, () => {
          exchange.sentMs = Math.round(now() - started);
        }),
        signal: controller.signal,
      });
      const resHeaders = flattenHeaders(res.headers);
      const contentType = resHeaders['content-type'] ?? '';
      const coding = contentCoding(resHeaders);
      const redirected = res.statusCode >= 300 && res.statusCode < 400;
      if (coding && !redirected) {
        // Not read at all (a bomb stays a few bytes); the abort this causes is expected, not an error.
        res.body.on('error', () => undefined).destroy();
        exchange.response = { status: res.statusCode, headers: mask.headers(resHeaders) };
        return failure(
          'compressed',
          `${req.method} ${req.path} answered a body compressed with ${coding} (Content-Encoding: ${coding}); provcert does not decompress provider answers: send uncompressed JSON (provcert asks for Accept-Encoding: identity)`,
        );
      }
      const read = await readCapped(res.body, options.maxBodyBytes);
      exchange.durationMs = Math.round(now() - started);
      // Masked before it is cut, so no secret is split by the cut and shown in part.
      const shown = truncate(mask.text(read.text));
      exchange.response = {
        status: res.statusCode,
        headers: mask.headers(resHeaders),
        body: shown.body,
        ...(shown.truncated || read.tooLarge ? { truncated: true } : {}),
      };
      if (read.tooLarge) {
        return failure(
          'too-large',
          `${req.method} ${req.path} answered more than ${options.maxBodyBytes} bytes; reading stopped there (the body limit protects the run)`,
        );
      }
      if (res.statusCode >= 300 && res.statusCode < 400) {
        const location = resHeaders['location'] ?? '(no location header)';
        return failure(
          'redirect',
          link
            ? `GET ${url} answered a redirect ${res.statusCode} to ${location}; redirects are not followed`
            : `${req.method} ${req.path} answered a redirect ${res.statusCode} to ${location}; redirects are not followed: use the final address as the base URL`,
        );
      }
      if (jsonDeeperThan(read.text, MAX_JSON_DEPTH)) {
        return failure(
          'too-deep',
          `${req.method} ${req.path} answered JSON nested deeper than ${MAX_JSON_DEPTH} levels; provcert does not read it (the contract's payloads are a few levels deep)`,
        );
      }
      const { kind, json } = classifyBody(contentType, read.text);
      return {
        kind: 'response',
        status: res.statusCode,
        headers: resHeaders,
        contentType,
        text: read.text,
        bodyKind: kind,
        json,
        durationMs: exchange.durationMs,
        exchange,
      };
    } catch (error) {
      if (deps.signal?.aborted && !timedOut)
        return failure('network', `${req.method} ${req.path} was stopped: the run was interrupted`);
      const { kind, message } = describeFailure(
        error,
        url,
        { requestMs: timeoutMs, connectMs },
        timedOut,
        deps.spell ?? spellAsConfigKey,
      );
      const held =
        timedOut && busyMs > 0
          ? ` (provcert's own work held it up ${busyMs} ms past its deadline, so it waited ${timeoutMs} ms more ${extensions === 1 ? 'once' : `${extensions} times`})`
          : '';
      return failure(kind, `${message}${held}`);
    } finally {
      clearTimeout(timer);
      inFlight.delete(controller);
    }
  }

  const close = (): Promise<void> => {
    deps.signal?.removeEventListener('abort', interrupt);
    return Promise.all([agent.close(), fresh.close()]).then(() => undefined);
  };
  return { options: publicOptions, send, close };
}
