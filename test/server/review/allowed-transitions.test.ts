import { describe, expect, it } from 'vitest';
import { allowedTransitions } from '../../../src/server/review/allowed-transitions.js';
import type { ReviewState } from '../../../src/server/review/lifecycle.js';

// The contract's moderation table written out by hand: the moves each review status allows.
const EXPECTED: Record<ReviewState, string[]> = {
  DRAFT: ['SUBMIT_REVIEW', 'UPDATE_INTEGRATION'],
  PENDING_APPROVAL: ['APPROVE', 'REQUEST_CHANGES', 'UPDATE_INTEGRATION', 'REJECT'],
  APPROVED: ['ACTIVATE', 'UPDATE_INTEGRATION'],
  ACTIVE: ['UPDATE_INTEGRATION', 'SUSPEND'],
  CHANGES_REQUESTED: ['UPDATE_INTEGRATION'],
  REJECTED: ['REOPEN'],
  SUSPENDED: ['REOPEN'],
};

describe('allowedTransitions', () => {
  it.each(Object.entries(EXPECTED) as [ReviewState, string[]][])('%s allows %j', (state, triggers) => {
    const moves = allowedTransitions(state, true);
    expect(moves.map((m) => m.trigger)).toEqual(triggers);
    expect(moves.every((m) => m.blockedBy === undefined)).toBe(true);
  });

  it("blocks a draft's submit until a passing certification of the current configuration", () => {
    const submit = allowedTransitions('DRAFT', false).find((m) => m.trigger === 'SUBMIT_REVIEW');
    expect(submit).toEqual({
      trigger: 'SUBMIT_REVIEW',
      to: 'PENDING_APPROVAL',
      route: 'POST /api/v1/providers/{slug}/submit-review',
      blockedBy: 'needs a passing certification of the current configuration',
    });
  });

  it('marks the decisions that take a reason, and names each route', () => {
    const moves = allowedTransitions('PENDING_APPROVAL', true);
    expect(moves.filter((m) => m.needsReason).map((m) => m.trigger)).toEqual(['REQUEST_CHANGES', 'REJECT']);
    expect(moves.find((m) => m.trigger === 'APPROVE')?.route).toBe('POST /api/v1/admin/providers/{slug}/review');
    expect(allowedTransitions('SUSPENDED', true)[0]?.route).toBe('POST /api/v1/admin/providers/{slug}/reopen');
  });
});
