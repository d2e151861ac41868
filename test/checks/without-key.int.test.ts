import { describe, expect, it } from 'vitest';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import { certify, certifyThroughProxy } from '../support/certify.js';

/**
 * An order without idempotencyKey (optional in CreateActionInput), beyond its fault (tx.int.test.ts): both readings
 * the contract leaves open pass, and a refusal with another code than VALIDATION_ERROR is a warning.
 */

const validation = (report: RunReport): CheckResult => {
  const found = report.checks.find((c) => c.id === 'action-validation');
  if (!found) throw new Error('no action-validation result');
  return found;
};

/** A provider that requires the key: the proxy refuses an order without one with this answer. */
const requiringKey = (status: number, code: string) => ({
  rule: ({ method, path, body }: { method: string; path: string; body: string }) => {
    if (method !== 'POST' || path !== '/actions') return undefined;
    let sent: unknown;
    try {
      sent = JSON.parse(body);
    } catch {
      return undefined; // the malformed-action rows: the provider answers those itself
    }
    return sent !== null && typeof sent === 'object' && !('idempotencyKey' in sent)
      ? { answer: { status, json: { code, message: 'idempotencyKey is required' } } }
      : undefined;
  },
});

describe('action-validation: an order without idempotencyKey', () => {
  it('is accepted by the reference provider and cancelled', async () => {
    const { report, provider } = await certify({ only: ['action-validation'] });
    const r = validation(report);
    expect(r.status, r.message).toBe('pass');
    expect(r.message).toMatch(/an order without idempotencyKey was accepted \(the key is optional\) and cancelled/);
    expect(provider.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/cancel'))).toHaveLength(1);
  });

  it('passes a provider that requires the key and answers its absence 422 VALIDATION_ERROR', async () => {
    const { report } = await certifyThroughProxy(
      { only: ['action-validation'] },
      requiringKey(422, 'VALIDATION_ERROR'),
    );
    const r = validation(report);
    expect(r.status, r.message).toBe('pass');
    expect(r.warnings ?? []).toEqual([]);
    expect(r.message).toMatch(/an order without idempotencyKey was refused as a missing field/);
  });

  it('warns, never fails, when that refusal carries another 4xx code', async () => {
    const { report } = await certifyThroughProxy(
      { only: ['action-validation'] },
      requiringKey(400, 'INVALID_ARGUMENT'),
    );
    const r = validation(report);
    expect(r.status, r.message).toBe('pass');
    expect(r.findings.filter((f) => f.severity === 'warn').map((f) => f.requirement)).toEqual([
      'ACTION-MISSING-FIELD-VALIDATION-ERROR',
    ]);
  });
});
