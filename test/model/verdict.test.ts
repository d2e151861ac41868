import { describe, expect, it } from 'vitest';
import type { CheckStatus } from '../../src/model/check-ids.js';
import {
  countChecks,
  deriveFleetVerdict,
  deriveRunVerdict,
  type FleetProviderVerdict,
  gatePasses,
  RUN_VERDICTS,
} from '../../src/model/verdict.js';

const checks = (...statuses: CheckStatus[]) => statuses.map((status) => ({ status }));

describe('not tested is never a pass (issue 33, item 4)', () => {
  it.each<[string, CheckStatus[], string]>([
    ['a rule not tested, the rest passed', ['pass', 'untested', 'skip'], 'INCOMPLETE'],
    ['only a rule not tested (no finding against the provider, so not FAIL)', ['untested'], 'INCOMPLETE'],
    ['a failure beside a rule not tested', ['fail', 'untested'], 'FAIL'],
    ['an error beside a rule not tested', ['error', 'untested', 'pass'], 'FAIL'],
    ['everything passed', ['pass', 'skip'], 'PASS'],
  ])('%s → %s', (_, statuses, verdict) => {
    expect(deriveRunVerdict({ checks: checks(...statuses) })).toBe(verdict);
  });

  it('INCOMPLETE outranks PARTIAL and yields to INTERRUPTED and an unapplied waiver', () => {
    const leftOut = [{ id: 'webhook' as const, reason: 'left out by --skip' }];
    expect(deriveRunVerdict({ checks: checks('pass', 'untested'), leftOut })).toBe('INCOMPLETE');
    expect(deriveRunVerdict({ checks: checks('pass', 'untested'), interruptedBy: 'SIGINT' })).toBe('INTERRUPTED');
    expect(deriveRunVerdict({ checks: checks('pass', 'untested'), waivers: [{ state: 'stale' }] })).toBe('FAIL');
  });

  it('no gate lets INCOMPLETE through, and it is one of the listed verdicts', () => {
    expect(gatePasses('INCOMPLETE')).toBe(false);
    expect(RUN_VERDICTS).toContain('INCOMPLETE');
  });

  it('counts untested checks apart', () => {
    expect(countChecks(checks('pass', 'untested', 'untested'))).toMatchObject({ pass: 1, untested: 2, fail: 0 });
  });

  it.each<[FleetProviderVerdict[], string]>([
    [['PASS', 'INCOMPLETE'], 'INCOMPLETE'],
    [['PARTIAL', 'INCOMPLETE'], 'INCOMPLETE'],
    [['INCOMPLETE', 'FAIL'], 'FAIL'],
    [['INCOMPLETE', 'NOT_RUN'], 'FAIL'],
    [['INCOMPLETE'], 'INCOMPLETE'],
  ])('a fleet of %j is %s', (providers, verdict) => {
    expect(deriveFleetVerdict({ providers, waivers: [] })).toBe(verdict);
  });
});
