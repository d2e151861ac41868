import { describe, expect, it } from 'vitest';
import { Findings } from '../../../src/checks/outcome.js';
import { keepEvidence } from '../../../src/checks/support/evidence.js';
import { expectError, expectJson } from '../../../src/checks/support/expect.js';
import { problemAt } from '../../../src/checks/support/tx.js';
import { classifyBody } from '../../../src/http/body.js';
import type { HttpResponse } from '../../../src/http/types.js';
import { testConfig } from '../../support/certify.js';

function response(status: number, text: string, path = '/catalog'): HttpResponse {
  const { kind, json } = classifyBody('application/json', text);
  const url = `http://127.0.0.1${path}`;
  return {
    kind: 'response',
    status,
    headers: { 'content-type': 'application/json' },
    contentType: 'application/json',
    text,
    bodyKind: kind,
    json,
    durationMs: 1,
    exchange: {
      request: { method: 'GET', url, headers: {} },
      response: { status, headers: {}, body: text },
      durationMs: 1,
    },
  };
}

const ctx = { config: testConfig('http://127.0.0.1') };

describe('keepEvidence', () => {
  it('keeps an exchange once when both the expect helpers and problemAt record problems about it', () => {
    const f = new Findings();
    const answer = response(500, '{"code":"INTERNAL_ERROR","message":"x"}');
    expect(expectJson(f, answer, 'GET /catalog')).toBe(false);
    expect(expectError(f, answer, { what: 'GET /catalog', statuses: [404] })).toBe(false);
    problemAt(f, ctx, answer, 'GET /catalog failed again');
    keepEvidence(f, answer);
    const outcome = f.outcome('');
    expect(outcome.details).toHaveLength(2);
    expect(outcome.evidence).toEqual([answer.exchange]);
  });

  it('keeps each different exchange, in the order first kept', () => {
    const f = new Findings();
    const first = response(500, '{}', '/catalog');
    const second = response(500, '{}', '/locations');
    problemAt(f, ctx, second, 'second');
    expectJson(f, first, 'GET /catalog');
    keepEvidence(f, second);
    expect(f.outcome('').evidence).toEqual([second.exchange, first.exchange]);
  });

  it('keeps the same exchange again in another check', () => {
    const answer = response(500, '{}');
    const [a, b] = [new Findings(), new Findings()];
    keepEvidence(a, answer);
    expectJson(b, answer, 'GET /catalog');
    expect(a.outcome('').evidence).toHaveLength(1);
    expect(b.outcome('').evidence).toHaveLength(1);
  });
});
