import { describe, expect, test } from 'vitest';
import { type MutationReport, mutantKey, score, type TriageEntry } from '../../bench/mutation/score.js';

const SOURCE = ['const a = 1;', 'if (a === 1) ok();', "fail(401, 'UNAUTHORIZED', 'no');"].join('\n');
const at = (line: number, column: number, endColumn: number) => ({
  start: { line, column },
  end: { line, column: endColumn },
});

function report(statuses: string[]): MutationReport {
  return {
    files: {
      'src/x.ts': {
        source: SOURCE,
        mutants: statuses.map((status, i) => ({
          id: String(i),
          mutatorName: 'ConditionalExpression',
          replacement: `r${i}`,
          status,
          location: at(2, 5, 12),
        })),
      },
    },
  };
}

const keyOf = (r: MutationReport, i: number): string => {
  const file = r.files['src/x.ts'];
  const mutant = file?.mutants[i];
  if (!file || !mutant) throw new Error('no such mutant');
  return mutantKey('src/x.ts', file.source, mutant);
};

describe('mutation score', () => {
  test('the key names the file, the mutator, the code replaced, its replacement and its line', () => {
    expect(keyOf(report(['Survived']), 0)).toBe(
      'src/x.ts · ConditionalExpression · a === 1 → r0 · in: if (a === 1) ok();',
    );
  });

  test.each([
    { name: 'all killed', statuses: ['Killed', 'Timeout'], triage: [], percent: 100, untriaged: 0 },
    {
      name: 'an untriaged survivor counts against the score',
      statuses: ['Killed', 'Survived'],
      triage: [],
      percent: 50,
      untriaged: 1,
    },
    { name: 'no coverage is a survivor', statuses: ['Killed', 'NoCoverage'], triage: [], percent: 50, untriaged: 1 },
    {
      name: 'equivalent survivors leave the denominator',
      statuses: ['Killed', 'Survived'],
      triage: [[1, 'equivalent']],
      percent: 100,
      untriaged: 0,
    },
    {
      name: 'a known hole still counts against it',
      statuses: ['Killed', 'Survived'],
      triage: [[1, 'hole']],
      percent: 50,
      untriaged: 0,
    },
    {
      name: 'ignored mutants are not judged',
      statuses: ['Killed', 'Ignored', 'CompileError'],
      triage: [],
      percent: 100,
      untriaged: 0,
    },
  ] as const)('$name', ({ statuses, triage, percent, untriaged }) => {
    const r = report([...statuses]);
    const entries = new Map<string, TriageEntry>(
      triage.map(([i, verdict]) => [keyOf(r, i), { key: keyOf(r, i), verdict, why: 'test' }]),
    );
    const s = score(r, entries);
    expect({ percent: s.percent, untriaged: s.untriaged.length }).toEqual({ percent, untriaged });
  });
});
