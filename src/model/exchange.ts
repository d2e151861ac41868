/** How a request authenticated, without values (the kinds of the HTTP client's AuthOverride). */
export type ExchangeAuthKind =
  | 'configured'
  | 'none'
  | 'credential'
  | 'sign-other-bytes'
  | 'headers'
  | 'near-miss'
  | 'other-scheme';

/** One redacted request/response pair, as shown in reports. Header values of credentials are masked. */
export interface Exchange {
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body?: string;
    /** How the request authenticated (no values): lets a reproduce command send the same kind of request. */
    auth?: ExchangeAuthKind;
    /** With auth 'sign-other-bytes': the bytes that were signed instead of the body (not secret). */
    signedBytes?: string;
    /** With auth 'near-miss': how the credential or its signature was changed (no values). */
    nearMiss?: { change: string; target: 'credential' | 'signature' };
  };
  response?: { status: number; headers: Record<string, string>; body?: string; truncated?: boolean };
  /** What went wrong at the transport level, in words (timeout, refused, redirect, too large…). */
  failure?: string;
  /** When the answer had been read (or the request given up), in ms after the request started. */
  durationMs: number;
  /**
   * When the request's last byte left provcert, in ms after it started (absent when it never fully left): what
   * provcert measured of its own part, so a provider that held a request is not taken for provcert being slow.
   */
  sentMs?: number;
}
