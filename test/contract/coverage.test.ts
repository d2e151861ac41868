import { describe, expect, it } from 'vitest';
import { bundledCoverage } from '../../src/cli/commands/coverage.js';
import { computeCoverage, coverageHolds, coverageTotalsText } from '../../src/contract/coverage.js';
import type { Requirement } from '../../src/contract/requirements.js';

const entry = (id: string, verification: Requirement['verification'], checks: string[] = []): Requirement =>
  verification === 'checked'
    ? { id, section: 'S', quote: 'q', verification, checks }
    : { id, section: 'S', quote: 'q', verification, reason: 'r' };

describe('computeCoverage', () => {
  it.each([
    [
      'a checked requirement with a proving fault',
      [entry('A-ONE', 'checked', ['catalog'])],
      [{ name: 'f', check: 'catalog' as const, requirement: 'A-ONE' }],
      [],
    ],
    [
      'a checked requirement without a fault',
      [entry('A-ONE', 'checked', ['catalog'])],
      [],
      ['no fault proves that a listed check catches a violation', 'no fault proves that catalog fails on it'],
    ],
    [
      'a fault whose check is not listed for the requirement',
      [entry('A-ONE', 'checked', ['catalog'])],
      [{ name: 'f', check: 'offering' as const, requirement: 'A-ONE' }],
      ['no fault proves that a listed check catches a violation', 'no fault proves that catalog fails on it'],
    ],
    [
      'two declaring checks, a fault for one of them only',
      [entry('A-ONE', 'checked', ['catalog', 'offering'])],
      [{ name: 'f', check: 'catalog' as const, requirement: 'A-ONE' }],
      ['no fault proves that offering fails on it'],
    ],
  ])('%s', (_name, catalog, faults, problems) => {
    const c = computeCoverage(
      catalog,
      [
        { id: 'catalog', requirements: ['A-ONE'] },
        {
          id: 'offering',
          requirements:
            catalog[0]?.verification === 'checked' && catalog[0].checks.includes('offering') ? ['A-ONE'] : [],
        },
      ],
      faults,
    );
    expect(c.rows[0]?.problems).toEqual(problems);
  });

  it('flags a check or fault citing an unknown requirement, a catalog listing a check that does not declare it, and a declared core-side rule', () => {
    const c = computeCoverage(
      [entry('A-ONE', 'checked', ['catalog', 'offering']), entry('B-TWO', 'core-side')],
      [
        { id: 'catalog', requirements: ['A-ONE', 'B-TWO', 'C-NONE'] },
        { id: 'offering', requirements: [] },
      ],
      [
        { name: 'f', check: 'catalog', requirement: 'A-ONE' },
        { name: 'g', check: 'catalog', requirement: 'D-NONE' },
      ],
    );
    expect(c.problems).toEqual([
      'check catalog cites C-NONE, which is not in spec/requirements.yaml',
      'fault g names D-NONE, which is not in spec/requirements.yaml',
    ]);
    expect(c.rows[0]?.problems).toEqual(['the catalog lists offering, which do not declare A-ONE']);
    expect(c.rows[1]?.problems).toEqual(['core-side, but catalog declare it']);
    expect(coverageHolds(c)).toBe(false);
    expect(coverageTotalsText(c)).toBe(
      'checked 1, core-side 1, not observable 0; 1/1 checked requirements proven by a fault; 1/1 requirement × check pairs proven',
    );
  });
});

describe('the bundled catalog, checks and faults', () => {
  it('agree: every check cites catalog ids, every checked id lists exactly the checks that declare it, every fault names a requirement', async () => {
    const c = await bundledCoverage();
    expect(c.problems).toEqual([]);
    const disagreements = c.rows.flatMap((r) =>
      r.problems.filter((p) => !p.startsWith('no fault proves')).map((p) => `${r.id}: ${p}`),
    );
    expect(disagreements).toEqual([]);
  });

  it('prove every checked requirement with a fault', async () => {
    const c = await bundledCoverage();
    const unproven = c.rows.filter((r) => r.verification === 'checked' && r.faults.length === 0).map((r) => r.id);
    expect(unproven).toEqual([]);
  });

  it('prove every requirement × declaring check pair: a check declares only rules it can fail on', async () => {
    const c = await bundledCoverage();
    const unproven = c.pairs.filter((p) => p.faults.length === 0).map((p) => `${p.check} × ${p.requirement}`);
    expect(unproven).toEqual([]);
    expect(coverageHolds(c)).toBe(true);
    expect(c.totals.pairs).toBeGreaterThan(c.totals.checked);
    expect(coverageTotalsText(c)).toBe(
      `checked ${c.totals.checked}, core-side ${c.totals['core-side']}, not observable ${c.totals['not-observable']}; ${c.totals.checked}/${c.totals.checked} checked requirements proven by a fault; ${c.totals.pairs}/${c.totals.pairs} requirement × check pairs proven`,
    );
  });
});
