/**
 * Resource limits of the core server: what one sender, or many at once, may make it hold. Defaults
 * suit a receiver of small JSON status events; `provcert serve` exposes each as a flag and a config key.
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

/** Seconds a sender told 503 should wait before retrying. */
export const RETRY_AFTER_S = 1;

export const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as (keyof IngestLimits)[];

export function resolveLimits(overrides: Partial<IngestLimits> = {}): IngestLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const name of LIMIT_NAMES) {
    const value = overrides[name];
    if (value !== undefined) limits[name] = value;
  }
  // The body deadline cannot outlive the whole-request deadline.
  limits.requestTimeoutMs = Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs + 1);
  return limits;
}

/** Bytes of request bodies held at this moment, across all requests. */
export class InflightBudget {
  private held = 0;
  constructor(readonly capacity: number) {}

  tryTake(bytes: number): boolean {
    if (this.held + bytes > this.capacity) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }

  get inUse(): number {
    return this.held;
  }
}

/** The command-line flag of a limit: maxBodyBytes → --max-body-bytes. */
export const limitFlag = (name: keyof IngestLimits): string =>
  `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
