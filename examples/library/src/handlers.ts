import type { HealthCheckResult, NormalizedQuote, QuoteLine } from 'provcert/types';

/*
 * A provider's handlers, typed against the contract: a missing required field or a wrong type is a compile error
 * here, long before certification. (The contract also lets a provider add fields of its own; these types list the
 * ones it names.)
 */

export function health(now: Date, latencyMs: number): HealthCheckResult {
  return { status: 'HEALTHY', latencyMs, timestamp: now.toISOString() };
}

export interface PricedItem {
  offeringId: string;
  quantity: number;
  unitPrice: number;
}

export function quote(
  providerSlug: string,
  items: readonly PricedItem[],
  now: Date,
  validSeconds: number,
): NormalizedQuote {
  const lines: QuoteLine[] = items.map((item) => ({
    offeringId: item.offeringId,
    quantity: item.quantity,
    unitPrice: item.unitPrice,
    optionsTotal: 0,
    lineTotal: item.unitPrice * item.quantity,
  }));
  const subtotal = lines.reduce((sum, line) => sum + (line.lineTotal ?? 0), 0);
  return {
    id: `q_${now.getTime().toString(36)}`,
    providerSlug,
    currency: 'EUR',
    lines,
    subtotal,
    total: subtotal,
    expiresAt: new Date(now.getTime() + validSeconds * 1000).toISOString(),
  };
}
