import type { RunReport } from '../checks/types.js';
import type { Exchange } from '../http/types.js';
import { SENSITIVE_HEADERS } from '../http/redact.js';

/**
 * Headers masked by every reporter, whatever the engine did before: a second line of defence, so a
 * credential that slipped into evidence still never reaches a report.
 */
const MASKED_HEADERS = new Set([
  'authorization', 'x-provider-api-key', 'x-service-signature', 'x-provider-signature', 'cookie',
  ...SENSITIVE_HEADERS,
]);

export const MASK = '****';

export function maskHeaderForReport(name: string, value: string): string {
  if (!MASKED_HEADERS.has(name.toLowerCase())) return value;
  // Keep the scheme word: "Bearer ****" still tells the reader which auth header was sent.
  const scheme = /^(Bearer|Basic)\s+/i.exec(value)?.[0] ?? '';
  return `${scheme}${MASK}`;
}

export function maskHeadersForReport(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = maskHeaderForReport(name, value);
  return out;
}

function maskExchange(exchange: Exchange): Exchange {
  const masked: Exchange = {
    ...exchange,
    request: { ...exchange.request, headers: maskHeadersForReport(exchange.request.headers) },
  };
  if (exchange.response) masked.response = { ...exchange.response, headers: maskHeadersForReport(exchange.response.headers) };
  return masked;
}

/** A copy of the report whose evidence headers are all masked. Every renderer starts from this. */
export function maskReport(report: RunReport): RunReport {
  return {
    ...report,
    checks: report.checks.map((check) => ({ ...check, evidence: check.evidence.map(maskExchange) })),
  };
}
