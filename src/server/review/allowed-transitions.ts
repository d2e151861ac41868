import type { components } from '../../contract/generated/contract-types.js';
import { LIFECYCLE, type ReviewState, type Trigger } from './lifecycle.js';

export type AllowedTransitionView = components['schemas']['CoreAllowedTransition'];

/** The route that makes each move (docs/core-server.md, "The review lifecycle"). */
const ROUTE_OF: Record<Trigger, string> = {
  SUBMIT_REVIEW: 'POST /api/v1/providers/{slug}/submit-review',
  APPROVE: 'POST /api/v1/admin/providers/{slug}/review',
  ACTIVATE: 'POST /api/v1/admin/providers/{slug}/review',
  REQUEST_CHANGES: 'POST /api/v1/admin/providers/{slug}/review',
  REJECT: 'POST /api/v1/admin/providers/{slug}/review',
  SUSPEND: 'POST /api/v1/admin/providers/{slug}/review',
  UPDATE_INTEGRATION: 'POST /api/v1/providers/register',
  REOPEN: 'POST /api/v1/admin/providers/{slug}/reopen',
};

/**
 * The moves the lifecycle table allows from `state`, in table order, one per trigger (the first row that
 * takes it), each with its route and, when a condition is not met now, why it would be refused. Read from
 * the table, so no client writes the lifecycle again.
 */
export function allowedTransitions(state: ReviewState, isCertified: boolean): AllowedTransitionView[] {
  const seen = new Set<Trigger>();
  const out: AllowedTransitionView[] = [];
  for (const row of LIFECYCLE) {
    if (!row.from.includes(state) || seen.has(row.trigger)) continue;
    seen.add(row.trigger);
    const blocked =
      row.guard === 'passing-current-certification' && !isCertified
        ? 'needs a passing certification of the current configuration'
        : undefined;
    out.push({
      trigger: row.trigger,
      to: row.to,
      route: ROUTE_OF[row.trigger],
      ...(row.guard === 'reason-given' ? { needsReason: true } : {}),
      ...(blocked ? { blockedBy: blocked } : {}),
    });
  }
  return out;
}
