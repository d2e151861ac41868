import { DECISIONS, type Decision, MIN_REASON_LENGTH } from './lifecycle.js';

/** The body of POST /admin/providers/{slug}/review once its rules hold (CoreReviewDecisionInput). */
export interface DecisionInput {
  decision: Decision;
  reasonCode?: string;
  reason?: string;
  requiredChanges?: string[];
  internalNote?: string;
}

const NEEDS_REASON: readonly Decision[] = ['REQUEST_CHANGES', 'REJECT', 'SUSPEND'];
const REASON_CODE = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const MAX_REASON = 2_000;
const MAX_NOTE = 4_000;
const MAX_CHANGES = 50;
const MAX_CHANGE = 500;

/** Every problem of a decision body at once (the route answers them in one 400), or the decision. */
export function parseDecision(body: unknown): { ok: true; value: DecisionInput } | { ok: false; problems: string[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, problems: ['the body must be a JSON object'] };
  const b = body as Record<string, unknown>;
  const problems: string[] = [];
  const decision = b['decision'];
  if (typeof decision !== 'string' || !(DECISIONS as readonly string[]).includes(decision)) {
    problems.push(
      `decision must be one of ${DECISIONS.join(', ')} (found ${decision === undefined ? 'nothing' : JSON.stringify(decision)})`,
    );
  }
  const needsReason = typeof decision === 'string' && (NEEDS_REASON as readonly string[]).includes(decision);
  const { reasonCode, reason, requiredChanges, internalNote } = b;
  if (reasonCode !== undefined || needsReason) {
    if (typeof reasonCode !== 'string' || !REASON_CODE.test(reasonCode))
      problems.push(
        `reasonCode is required for ${needsReason ? String(decision) : 'a decision'}: a stable category such as ITEM_UNAVAILABLE (a letter, then letters, digits, "_", "-" or "."; at most 64)`,
      );
  }
  if (reason !== undefined || needsReason) {
    if (typeof reason !== 'string' || reason.trim().length < MIN_REASON_LENGTH)
      problems.push(
        `reason must be a partner-visible text of at least ${MIN_REASON_LENGTH} characters${
          typeof reason === 'string' ? ` (found ${reason.trim().length})` : ''
        }`,
      );
    else if (reason.length > MAX_REASON) problems.push(`reason must be at most ${MAX_REASON} characters`);
  }
  if (requiredChanges !== undefined) {
    if (
      !Array.isArray(requiredChanges) ||
      requiredChanges.length > MAX_CHANGES ||
      !requiredChanges.every((c) => typeof c === 'string' && c.trim() !== '' && c.length <= MAX_CHANGE)
    )
      problems.push(
        `requiredChanges must be a list of at most ${MAX_CHANGES} non-blank texts of at most ${MAX_CHANGE} characters`,
      );
  }
  if (internalNote !== undefined && (typeof internalNote !== 'string' || internalNote.length > MAX_NOTE))
    problems.push(`internalNote must be a text of at most ${MAX_NOTE} characters`);
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      decision: decision as Decision,
      ...(typeof reasonCode === 'string' ? { reasonCode } : {}),
      ...(typeof reason === 'string' ? { reason: reason.trim() } : {}),
      ...(Array.isArray(requiredChanges) ? { requiredChanges: requiredChanges.map((c) => String(c).trim()) } : {}),
      ...(typeof internalNote === 'string' ? { internalNote } : {}),
    },
  };
}
