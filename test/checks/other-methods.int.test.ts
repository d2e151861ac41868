import { describe, expect, it } from 'vitest';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import { certify, certifyThroughProxy } from '../support/certify.js';

/** The other-method rows of the errors check, beyond their fault (read.int.test.ts): what is open, and the safety gate. */

const errors = (report: RunReport): CheckResult => {
  const found = report.checks.find((c) => c.id === 'errors');
  if (!found) throw new Error('no errors result');
  return found;
};

describe('errors: a listed path with another method', () => {
  it('sends GET to the POST paths and POST to the GET paths of a provider declared safe, all answered 404', async () => {
    const { report, provider } = await certify({ only: ['errors'] });
    expect(errors(report).status, errors(report).message).toBe('pass');
    const sent = provider.requests.map((r) => `${r.method} ${r.path}`);
    expect(sent).toEqual(expect.arrayContaining(['POST /catalog', 'POST /health', 'GET /quote', 'GET /actions']));
    // The core's routes are the service's, not the provider's: none is sent to the provider.
    expect(sent.filter((s) => s.includes('/api/v1/'))).toEqual([]);
  });

  it('sends no POST when the test environment is not declared safe (only the GET rows)', async () => {
    const { report, provider } = await certify({ only: ['errors'], faults: ['unsafe-test-environment'] });
    expect(provider.requests.filter((r) => r.method === 'POST')).toEqual([]);
    expect(provider.requests.map((r) => `${r.method} ${r.path}`)).toContain('GET /quote');
    expect(errors(report).status, errors(report).message).toBe('pass');
  });

  it('warns, never fails, on 405 Method Not Allowed (the contract says 404 NOT_FOUND; HTTP says 405)', async () => {
    const { report } = await certifyThroughProxy(
      { only: ['errors'] },
      {
        rule: ({ method, path }) =>
          method === 'POST' && path === '/catalog'
            ? { answer: { status: 405, json: { code: 'METHOD_NOT_ALLOWED', message: 'use GET' } } }
            : undefined,
      },
    );
    const r = errors(report);
    expect(r.status, r.message).toBe('pass');
    expect(r.findings.filter((f) => f.severity === 'warn').map((f) => [f.requirement, f.message])).toEqual([
      [
        'ERROR-NOT-FOUND',
        expect.stringMatching(
          /^POST \/catalog \(the route table lists GET \/catalog\) was answered HTTP 405 METHOD_NOT_ALLOWED; the contract answers an endpoint that does not exist with 404 NOT_FOUND$/,
        ),
      ],
    ]);
  });
});
