/**
 * The contract's moderation (review) lifecycle as one table (States and transitions › Moderation) and
 * its one interpreter. Every core route that changes a provider's review state goes through
 * `ProviderRegistry.transition`, which asks `decide` here; nothing else changes a state.
 */

export const REVIEW_STATES = [
  'DRAFT',
  'PENDING_APPROVAL',
  'APPROVED',
  'ACTIVE',
  'CHANGES_REQUESTED',
  'REJECTED',
  'SUSPENDED',
] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** Provider status (States and transitions › Provider status): separate from review and certification. */
export const PROVIDER_STATUSES = ['DRAFT', 'SANDBOX', 'ACTIVE', 'SUSPENDED', 'DISABLED'] as const;
export type ProviderStatus = (typeof PROVIDER_STATUSES)[number];

/** What may move a provider: an operator decision, a provider action, or reopen. */
export const TRIGGERS = [
  'SUBMIT_REVIEW',
  'APPROVE',
  'ACTIVATE',
  'REQUEST_CHANGES',
  'REJECT',
  'SUSPEND',
  'UPDATE_INTEGRATION',
  'REOPEN',
] as const;
export type Trigger = (typeof TRIGGERS)[number];

/** The decisions POST /admin/providers/{slug}/review takes (approval and activation are admin operations too). */
export const DECISIONS = ['APPROVE', 'ACTIVATE', 'REQUEST_CHANGES', 'REJECT', 'SUSPEND'] as const;
export type Decision = (typeof DECISIONS)[number];

/**
 * Conditions a row needs beyond its state, checked by the caller inside the provider's lock:
 * - `passing-current-certification`: the latest certification passed and ran on the current configuration
 *   (base URL, auth method, credential, capabilities, fulfillment) and was not invalidated by reopen;
 * - `reason-given`: `reasonCode` and a `reason` of at least 12 characters (checked before the lock: a 400).
 */
export type GuardName = 'passing-current-certification' | 'reason-given';

/** What a row does besides moving the state. */
export type Effect =
  /** The partner-visible reason of the last decision is removed from the provider's metadata. */
  | 'clear-visible-reason'
  /** The decision's reasonCode, reason and requiredChanges become the partner-visible reason. */
  | 'set-visible-reason'
  /** Every earlier certification stops counting for submit-review (listed as invalidated). */
  | 'invalidate-certifications'
  /** The registration's new configuration is stored and its configVersion goes up. */
  | 'apply-configuration';

export interface LifecycleRow {
  from: readonly ReviewState[];
  trigger: Trigger;
  guard?: GuardName;
  to: ReviewState;
  /** The provider status this row sets (the contract leaves status transitions open: docs/decisions.md). */
  status: ProviderStatus;
  effects: readonly Effect[];
  /** The requirement of spec/requirements.yaml the row implements. */
  requirement: string;
}

/** States where a provider changing its integration goes back to DRAFT (certify and submit again). */
const EDITABLE: readonly ReviewState[] = ['DRAFT', 'PENDING_APPROVAL', 'APPROVED', 'ACTIVE'];

export const LIFECYCLE: readonly LifecycleRow[] = [
  {
    from: ['DRAFT'],
    trigger: 'SUBMIT_REVIEW',
    guard: 'passing-current-certification',
    to: 'PENDING_APPROVAL',
    status: 'SANDBOX',
    effects: ['clear-visible-reason'],
    requirement: 'REVIEW-SUBMIT',
  },
  {
    from: ['PENDING_APPROVAL'],
    trigger: 'APPROVE',
    to: 'APPROVED',
    status: 'SANDBOX',
    effects: [],
    requirement: 'REVIEW-APPROVE',
  },
  {
    from: ['APPROVED'],
    trigger: 'ACTIVATE',
    to: 'ACTIVE',
    status: 'ACTIVE',
    effects: [],
    requirement: 'REVIEW-ACTIVATE',
  },
  {
    from: ['PENDING_APPROVAL'],
    trigger: 'REQUEST_CHANGES',
    guard: 'reason-given',
    to: 'CHANGES_REQUESTED',
    status: 'DRAFT',
    effects: ['set-visible-reason'],
    requirement: 'REVIEW-REQUEST-CHANGES',
  },
  {
    from: ['CHANGES_REQUESTED'],
    trigger: 'UPDATE_INTEGRATION',
    to: 'DRAFT',
    status: 'DRAFT',
    effects: ['apply-configuration'],
    requirement: 'REVIEW-CHANGES-TO-DRAFT',
  },
  {
    // Not a row of the contract's table: a changed integration must be certified and reviewed again.
    from: EDITABLE,
    trigger: 'UPDATE_INTEGRATION',
    to: 'DRAFT',
    status: 'DRAFT',
    effects: ['apply-configuration'],
    requirement: 'REVIEW-NO-SELF-RESET',
  },
  {
    from: ['PENDING_APPROVAL'],
    trigger: 'REJECT',
    guard: 'reason-given',
    to: 'REJECTED',
    status: 'DISABLED',
    effects: ['set-visible-reason'],
    requirement: 'REVIEW-REJECT',
  },
  {
    from: ['ACTIVE'],
    trigger: 'SUSPEND',
    guard: 'reason-given',
    to: 'SUSPENDED',
    status: 'SUSPENDED',
    effects: ['set-visible-reason'],
    requirement: 'REVIEW-SUSPEND',
  },
  {
    from: ['REJECTED', 'SUSPENDED'],
    trigger: 'REOPEN',
    to: 'DRAFT',
    status: 'DRAFT',
    effects: ['invalidate-certifications'],
    requirement: 'REVIEW-REOPEN',
  },
];

export type Decided = { ok: true; row: LifecycleRow } | { ok: false; current: ReviewState; allowed: Trigger[] };

/** The row that `trigger` takes from `state`, or the triggers that state allows. */
export function decide(state: ReviewState, trigger: Trigger): Decided {
  const row = LIFECYCLE.find((r) => r.trigger === trigger && r.from.includes(state));
  if (row) return { ok: true, row };
  return { ok: false, current: state, allowed: allowedTriggers(state) };
}

export function allowedTriggers(state: ReviewState): Trigger[] {
  return [...new Set(LIFECYCLE.filter((r) => r.from.includes(state)).map((r) => r.trigger))];
}

/** The 409 message of an illegal transition: the current state and what it allows. */
export function illegalTransitionMessage(slug: string, trigger: Trigger, current: ReviewState): string {
  const allowed = allowedTriggers(current);
  return `cannot ${trigger} ${slug}: its review status is ${current}; allowed from ${current}: ${
    allowed.length > 0 ? allowed.join(', ') : 'nothing'
  }`;
}

/** The status a provider has in a review state (new registrations and old data files without one). */
export function statusOf(state: ReviewState): ProviderStatus {
  return state === 'DRAFT' ? 'DRAFT' : (LIFECYCLE.find((r) => r.to === state)?.status ?? 'DRAFT');
}

export const MIN_REASON_LENGTH = 12;
