import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../../src/checks/framework/registry.js';

describe('rule texts cite the decisions file users have', () => {
  it.each(CHECKS.map((c) => [c.id, c.rule] as const))('%s', (_id, rule) => {
    expect(rule).not.toContain('DECISIONS.md');
    expect(rule.length).toBeGreaterThan(0);
  });
});
