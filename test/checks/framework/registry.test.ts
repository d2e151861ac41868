import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS, checkById, checkIdsIn, parseCheckIds } from '../../../src/checks/framework/registry.js';
import { CHECK_IDS } from '../../../src/model/check-ids.js';

/** src/checks/ files that are not checks: the findings builder beside them. */
const NOT_CHECKS = new Set(['outcome.ts']);

describe('the check registry', () => {
  it('lists the checks in the order of CHECK_IDS, each under its own id', () => {
    expect(CHECKS.map((c) => c.id)).toEqual([...CHECK_IDS]);
    for (const id of CHECK_IDS) expect(checkById(id)?.id, id).toBe(id);
  });

  it('holds one check per file of src/checks/, the file named by its id', () => {
    const files = readdirSync(join(import.meta.dirname, '../../../src/checks'), { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts') && !NOT_CHECKS.has(e.name))
      .map((e) => e.name.replace(/\.ts$/, ''));
    expect(files.sort()).toEqual([...CHECK_IDS].sort());
  });

  it('puts every check in the read or the transactional group', () => {
    const read = checkIdsIn('read');
    const transactional = checkIdsIn('transactional');
    expect([...read, ...transactional].sort()).toEqual([...CHECK_IDS].sort());
    expect(transactional).toContain('quote-math');
    expect(read).toContain('errors');
  });

  it.each([
    ['metadata', { ids: ['metadata'], unknown: [] }],
    [' metadata , quote-math ', { ids: ['metadata', 'quote-math'], unknown: [] }],
    ['metadata,nope,,toString', { ids: ['metadata'], unknown: ['nope', 'toString'] }],
    ['', { ids: [], unknown: [] }],
  ])('parses the id list %j', (list, expected) => {
    expect(parseCheckIds(list)).toEqual(expected);
  });

  it.each(['toString', 'constructor', '__proto__', 'nope'])('knows no check %j', (id) => {
    expect(checkById(id)).toBeUndefined();
  });
});

describe('rule texts cite the decisions file users have', () => {
  it.each(CHECKS.map((c) => [c.id, c.rule] as const))('%s', (_id, rule) => {
    expect(rule).not.toContain('DECISIONS.md');
    expect(rule.length).toBeGreaterThan(0);
  });
});
