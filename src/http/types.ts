import type { AuthMethod } from '../model/contract-constants.js';
import type { Exchange } from '../model/exchange.js';

export type TransportFailureKind =
  | 'timeout'
  | 'dns'
  | 'refused'
  | 'reset'
  | 'tls'
  | 'too-large'
  | 'redirect'
  | 'network'
  /** The body was compressed (Content-Encoding); provcert does not decompress provider answers. */
  | 'compressed'
  /** The body was JSON nested deeper than provcert reads (MAX_JSON_DEPTH). */
  | 'too-deep'
  /** Not sent: the run refused to send it (e.g. a POST while the test environment is not declared safe). */
  | 'blocked';

/** How a request authenticates: the configured credential, none, a different credential, or raw headers. */
export type AuthOverride =
  | { kind: 'configured' }
  | { kind: 'none' }
  | { kind: 'credential'; credential: string }
  /** HMAC only: sign these bytes instead of the body actually sent (tampered-body tests). */
  | { kind: 'sign-other-bytes'; bytes: string }
  | { kind: 'headers'; headers: Record<string, string> }
  /**
   * The configured credential nearly right: changed by `change`. With `signature`, the whole header value it gives
   * is changed (the HMAC, or `Bearer <token>` with its scheme word).
   */
  | { kind: 'near-miss'; change: NearMissChange; target: 'credential' | 'signature' }
  /** The configured credential carried as another auth method would carry it (another header or scheme). */
  | { kind: 'other-scheme' };

/**
 * How a near-miss changes a value. Each keeps the value recognisable (a provider comparing loosely accepts it);
 * `nbsp-around` adds U+00A0 on both sides, whitespace an HTTP parser keeps (it strips spaces and tabs).
 */
export type NearMissChange =
  | 'drop-last'
  | 'first-half'
  | 'append'
  | 'swap-case'
  | 'nbsp-around'
  /** A leading space: kept only after a scheme word ("Bearer  token"); alone, HTTP strips it. */
  | 'space-before'
  /** Of a header value: its first word replaced by `Basic` ("Basic <token>": another scheme, the right token). */
  | 'scheme-replaced'
  /** Of a header value: a word put before it ("Token Bearer <token>": the scheme not at the start). */
  | 'word-before'
  | 'upper-case';

export interface ProviderRequest {
  method: 'GET' | 'POST';
  /** Route path relative to the base URL, e.g. `/catalog` or `/actions/a%2F1`. */
  path: string;
  /**
   * A link the provider gave (nextAction.url), opened instead of `path` as a customer's browser would: GET only,
   * never with a credential, and only on the base address's host (link.ts); any other link is not sent.
   */
  link?: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON body; serialized once, and those exact bytes are sent and (for HMAC) signed. */
  json?: unknown;
  /** Raw body bytes, used instead of `json` when set. */
  rawBody?: string;
  auth?: AuthOverride;
  timeoutMs?: number;
}

export type BodyKind = 'json' | 'empty' | 'html' | 'not-json' | 'truncated-json';

export interface HttpResponse {
  kind: 'response';
  status: number;
  headers: Record<string, string>;
  contentType: string;
  text: string;
  bodyKind: BodyKind;
  /** Parsed JSON when bodyKind is 'json'. */
  json: unknown;
  durationMs: number;
  exchange: Exchange;
}

export interface HttpFailure {
  kind: 'failure';
  failure: TransportFailureKind;
  /** Names what happened and what to do, e.g. "timed out after 10000 ms: …". */
  message: string;
  durationMs: number;
  exchange: Exchange;
}

export type HttpOutcome = HttpResponse | HttpFailure;

export interface ProviderClientOptions {
  baseUrl: string;
  authMethod: AuthMethod;
  credential: string;
  timeoutMs: number;
  maxBodyBytes: number;
}

/** The outbound client checks use. Implementations never throw for network or HTTP problems. */
export interface ProviderClient {
  readonly options: Readonly<Omit<ProviderClientOptions, 'credential'>>;
  send(request: ProviderRequest): Promise<HttpOutcome>;
}
