import { describe, expect, it } from 'vitest';
import { Findings } from '../../src/checks/outcome.js';

/** A note (provcert re-quoted after its own delay) is shown with the result but never counts as a finding. */
describe('Findings.note', () => {
  it('joins the pass message and stays out of the findings', () => {
    const f = new Findings();
    f.note('re-quoted once');
    const outcome = f.outcome('action A-1 is AWAITING_PAYMENT');
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('action A-1 is AWAITING_PAYMENT (re-quoted once)');
    expect(outcome.findings).toEqual([]);
    expect(outcome.warnings).toBeUndefined();
  });

  it('goes to the details of a failure, after the other problems', () => {
    const f = new Findings();
    f.note('re-quoted once');
    f.problem('first problem');
    f.problem('second problem');
    const outcome = f.outcome('unused');
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('first problem');
    expect(outcome.details).toEqual(['second problem', 're-quoted once']);
  });

  it('changes nothing without notes', () => {
    const f = new Findings();
    expect(f.outcome('all good').message).toBe('all good');
  });
});
