import type { AllowedMove } from './data.js';
import { type Html, html, seg } from './html.js';
import { CONSOLE_PREFIX } from './layout.js';
import type { Session } from './session.js';

/** Moves the console makes with one button and a confirmation box: what each button says and where it posts. */
const CONFIRMED_MOVES: Record<string, { label: string; action: string }> = {
  APPROVE: { label: 'Approve', action: 'decide' },
  ACTIVATE: { label: 'Activate', action: 'decide' },
  REOPEN: { label: 'Reopen as draft', action: 'reopen' },
};

/** The move posted from a button (the confirmed ones and submit-for-review) has this name in the form. */
export const CONFIRM_FIELD = 'confirm';

const base = (slug: string): string => `${CONSOLE_PREFIX}/providers/${seg(slug)}`;
const hidden = (session: Session): Html => html`<input type="hidden" name="csrf" value="${session.csrf}">`;

/** Submit for review: offered where the lifecycle allows it; disabled, saying why, while its condition is unmet. */
function submitForm(session: Session, slug: string, move: AllowedMove): Html {
  if (move.blockedBy)
    return html`<div class="move" data-move="SUBMIT_REVIEW"><button type="button" disabled aria-describedby="submit-blocked">Submit for review</button>
<p class="hint" id="submit-blocked">Submit for review ${move.blockedBy}: run a certification that passes first.</p></div>`;
  return html`<form class="move" data-move="SUBMIT_REVIEW" method="post" action="${base(slug)}/submit-review">${hidden(session)}<button class="primary" type="submit">Submit for review</button></form>`;
}

/** Approve, Activate and Reopen: each its own form, sent only with its confirmation box ticked. */
function confirmedForm(session: Session, slug: string, move: AllowedMove, reviewStatus: string): Html {
  const shown = CONFIRMED_MOVES[move.trigger];
  if (!shown) return html``;
  const id = `confirm-${move.trigger.toLowerCase()}`;
  return html`<form class="move" data-move="${move.trigger}" method="post" action="${base(slug)}/${shown.action}">${hidden(session)}<input type="hidden" name="decision" value="${move.trigger}">
<label class="check"><input type="checkbox" id="${id}" name="${CONFIRM_FIELD}" value="${move.trigger}" required> Yes, ${shown.label.toLowerCase()} ${slug} (${reviewStatus} → ${move.to})</label>
<button type="submit">${shown.label}</button></form>`;
}

/** The decisions that take a reason, offered only as far as the lifecycle allows them now. */
function reasonedForm(session: Session, slug: string, moves: AllowedMove[]): Html {
  if (moves.length === 0) return html``;
  return html`<form class="stack" method="post" action="${base(slug)}/decide" data-reason-check novalidate>
${hidden(session)}
<label>Decision <select name="decision">${moves.map((m) => html`<option value="${m.trigger}">${m.trigger} (→ ${m.to})</option>`)}</select></label>
<label>Reason code <input name="reasonCode" required placeholder="e.g. WEBHOOK_SIGNATURE"></label>
<label>Reason (shown to the provider, at least 12 characters) <textarea name="reason" required aria-describedby="reason-error"></textarea></label>
<p class="field-error" id="reason-error" aria-live="assertive"></p>
<label>Required changes (one per line) <textarea name="requiredChanges"></textarea></label>
<label>Internal note (operators only) <textarea name="internalNote"></textarea></label>
<div class="actions"><button class="primary" type="submit">Send decision</button></div>
</form>`;
}

/**
 * An account's moves on its own provider: submit for review where the lifecycle allows it; the decisions are the
 * operator's (said, not offered).
 */
export function onboardingForms(session: Session, slug: string, reviewStatus: string, moves: AllowedMove[]): Html {
  const submit = moves.find((m) => m.trigger === 'SUBMIT_REVIEW');
  return html`<section class="panel" id="onboarding" aria-labelledby="onboarding-title"><h2 id="onboarding-title">Review</h2>
${submit ? html`<div class="actions">${submitForm(session, slug, submit)}</div>` : html`<p id="no-moves">Nothing to submit from ${reviewStatus}.</p>`}
<p class="hint">The operator decides the review (approve, request changes, reject).</p>
</section>`;
}

/**
 * The operator's decision panel: only the moves the API says the lifecycle allows from the provider's review
 * status (its `allowedTransitions`), never a button the core would answer 409.
 */
export function decisionForms(session: Session, slug: string, reviewStatus: string, moves: AllowedMove[]): Html {
  const submit = moves.find((m) => m.trigger === 'SUBMIT_REVIEW');
  const confirmed = moves.filter((m) => m.trigger in CONFIRMED_MOVES);
  const reasoned = moves.filter((m) => m.needsReason);
  const none = !submit && confirmed.length === 0 && reasoned.length === 0;
  return html`<section class="panel" id="decision" aria-labelledby="decision-title"><h2 id="decision-title">Decision</h2>
${none ? html`<p id="no-moves">No review decision is possible from ${reviewStatus}${moves.length > 0 ? ` (only ${moves.map((m) => m.trigger).join(', ')}, which a new registration makes)` : ''}.</p>` : ''}
<div class="actions">
${submit ? submitForm(session, slug, submit) : ''}
${confirmed.map((m) => confirmedForm(session, slug, m, reviewStatus))}
</div>
${reasonedForm(session, slug, reasoned)}
</section>`;
}
