import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/model/report.js';
import { applyStrict } from '../../src/runner/strict.js';

const base = (patch: Partial<CheckResult>): CheckResult => ({
  id: 'health',
  title: 'Health',
  rule: 'r',
  requirements: ['HEALTH-REQUIRED-FIELDS'],
  status: 'pass',
  message: 'ok',
  evidence: [],
  findings: [],
  durationMs: 1,
  ...patch,
});

describe('applyStrict', () => {
  it.each([
    ['a pass without warnings stays a pass', base({}), 'pass', 'ok'],
    [
      'a skip stays a skip',
      base({
        status: 'skip',
        message: 'not declared',
        findings: [{ severity: 'warn', requirement: 'X-Y', message: 'w' }],
      }),
      'skip',
      'not declared',
    ],
  ])('%s', (_name, result, status, message) => {
    expect(applyStrict(result)).toMatchObject({ status, message });
  });

  it('fails an untested check on its warnings, keeping the rule it did not test', () => {
    const untested = [{ requirement: 'QUOTE-TOTAL-FORMULA', reason: 'too few orders', remedy: 'answer faster' }];
    const out = applyStrict(
      base({
        status: 'untested',
        message: 'QUOTE-TOTAL-FORMULA not tested: too few orders; to test it: answer faster',
        untested,
        findings: [{ severity: 'warn', requirement: 'QUOTE-SELECTION-LIMITS', message: 'refused a valid order' }],
      }),
    );
    expect(out).toMatchObject({ status: 'fail', message: '(strict) refused a valid order', untested });
    expect(out.details).toEqual(['QUOTE-TOTAL-FORMULA not tested: too few orders; to test it: answer faster']);
  });

  it('turns the warnings of a passing check into failures citing the same requirement', () => {
    const out = applyStrict(
      base({
        warnings: ['offsetless'],
        findings: [{ severity: 'warn', requirement: 'TIMESTAMPS-ISO8601', message: 'offsetless' }],
      }),
    );
    expect(out.status).toBe('fail');
    expect(out.message).toBe('(strict) offsetless');
    expect(out.warnings).toBeUndefined();
    expect(out.findings).toEqual([
      { severity: 'fail', requirement: 'TIMESTAMPS-ISO8601', message: '(strict) offsetless' },
    ]);
  });

  it('appends the warnings of a failing check after its own problems', () => {
    const out = applyStrict(
      base({
        status: 'fail',
        message: 'total is 2',
        details: ['subtotal is 1'],
        warnings: ['w'],
        findings: [
          { severity: 'fail', requirement: 'A-B', message: 'total is 2' },
          { severity: 'fail', requirement: 'A-B', message: 'subtotal is 1' },
          { severity: 'warn', requirement: 'C-D', message: 'w' },
        ],
      }),
    );
    expect([out.message, ...(out.details ?? [])]).toEqual(['total is 2', 'subtotal is 1', '(strict) w']);
  });
});
