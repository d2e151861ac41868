import { DEFAULT_LIMITS, type IngestLimits, LIMIT_NAMES } from '../model/ingest-limits.js';

/** The limits' names, type and defaults are the model's (serve's settings carry them); the server applies them. */
export { DEFAULT_LIMITS, type IngestLimits, LIMIT_NAMES };

/** Seconds a sender told 503 should wait before retrying. */
export const RETRY_AFTER_S = 1;

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
