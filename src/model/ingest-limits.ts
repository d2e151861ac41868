/**
 * Resource limits of the core server: what one sender, or many at once, may make it hold. Defaults
 * suit a receiver of small JSON status events; `provcert serve` exposes each as a flag and a config key
 * (its flag is the cli's to name).
 */
export interface IngestLimits {
  /** Largest webhook body accepted (413 above it). */
  maxBodyBytes: number;
  /** Body bytes buffered by all requests together; beyond it new bytes get 503 with Retry-After. */
  maxInflightBytes: number;
  /** A body must arrive completely within this time after its headers (408). */
  bodyTimeoutMs: number;
  /** The request headers must arrive within this time (node:http headersTimeout). */
  headersTimeoutMs: number;
  /** A whole request must arrive within this time (node:http requestTimeout). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this time. */
  keepAliveTimeoutMs: number;
  /** Open connections at most; at the cap the oldest idle connection is dropped for a new one. */
  maxConnections: number;
  /** Header lines at most per request (node:http maxHeadersCount). */
  maxHeadersCount: number;
}

export const DEFAULT_LIMITS: IngestLimits = {
  maxBodyBytes: 64 * 1024,
  maxInflightBytes: 8 * 1024 * 1024,
  bodyTimeoutMs: 10_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_024,
  maxHeadersCount: 100,
};

export const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as (keyof IngestLimits)[];
