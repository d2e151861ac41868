import type { HttpOutcome } from '../../http/types.js';
import type { CheckContext } from '../framework/types.js';
import type { QuoteView } from '../framework/views.js';
import type { Findings } from '../outcome.js';
import { keepEvidence } from './evidence.js';
import { describeAnswer, errorCode, expectError } from './expect.js';
import { tooLongRemedy, waitPastExpiry } from './expiry-margin.js';
import { inPool, MAX_IN_FLIGHT } from './explore/pool.js';
import {
  type ActionState,
  changedPayloads,
  type PayloadContext,
  type PayloadProbe,
  SAME_PAYLOAD_ROWS,
} from './probe-tables/idempotency.js';
import { compareIdentity, describeMismatch } from './probe-tables/identity.js';
import { cancelStray } from './stray-order.js';
import { actionIdentity, actionPath, markReproduce, noteRequoted, problemAt, success } from './tx.js';

/**
 * The idempotency check's probes by action state (probe-tables/idempotency.ts): in each state the action reaches
 * during certification, identical repeats return it and every changed payload under its key is refused with 409.
 */

export const REUSED_CODE = 'IDEMPOTENCY_KEY_REUSED_WITH_DIFFERENT_PAYLOAD';
/** Identical repeats sent at once in each state (a retry storm is also a concurrent duplicate). */
export const REPEATS = 3;

/** An action and the key, body and quote it was created with. */
export interface Subject {
  id: string;
  publicId: string;
  answer: unknown;
  body: Record<string, unknown>;
  quote: QuoteView;
}

const send = (ctx: CheckContext, body: unknown): Promise<HttpOutcome> =>
  ctx.client.send({ method: 'POST', path: '/actions', json: body });

/** Records an action a probe should not have created (with its answer) and cancels it where the provider can. */
async function stray(ctx: CheckContext, subject: Subject, outcome: HttpOutcome): Promise<string | undefined> {
  const json = success(outcome)?.json;
  const { id, publicId } = actionIdentity(json);
  if (id === undefined || id === subject.id) return undefined;
  ctx.resources.noteCreatedAction({ id, ...(publicId !== undefined ? { publicId } : {}) }, json);
  await cancelStray(ctx, id);
  return publicId ?? id;
}

/**
 * Repeats of the same payload (same key, same body: REPEATS identical ones at once, then the same payload with its
 * keys reordered) return the identical existing action.
 */
async function repeatSame(ctx: CheckContext, f: Findings, state: ActionState, subject: Subject): Promise<void> {
  // The identical body REPEATS times at once (a retry storm), each other writing of the same payload once.
  const sent = SAME_PAYLOAD_ROWS.flatMap((row, i) =>
    Array.from({ length: i === 0 ? REPEATS : 1 }, () => ({ what: row.what, body: row.body(subject.body) })),
  );
  const outcomes = await Promise.all(sent.map((s) => send(ctx, s.body)));
  for (const [i, outcome] of outcomes.entries()) {
    const what = `[${state}] repeating POST /actions with ${sent[i]?.what ?? 'the same idempotencyKey and body'}`;
    const answered = success(outcome);
    if (!answered) {
      problemAt(
        f,
        ctx,
        outcome,
        `${what} was answered ${describeAnswer(outcome)}; expected the identical existing action ${subject.publicId}`,
        'ACTION-DUPLICATE-SAME-ACTION',
      );
      continue;
    }
    const created = await stray(ctx, subject, outcome);
    if (created !== undefined) {
      problemAt(
        f,
        ctx,
        outcome,
        `${what} was answered ${answered.status} and created action ${created}; expected the existing action ${subject.publicId} (id ${subject.id}): a retry created a second order`,
        'ACTION-DUPLICATE-SAME-ACTION',
      );
      continue;
    }
    for (const m of compareIdentity('GET /actions/{id}', subject.answer, answered.json).mismatches)
      problemAt(
        f,
        ctx,
        outcome,
        `${what} returned an action that ${describeMismatch(m)}`,
        'ACTION-DUPLICATE-SAME-ACTION',
      );
  }
}

/** The same key with one field changed is refused with 409 and creates nothing. */
async function changedPayload(
  ctx: CheckContext,
  f: Findings,
  state: ActionState,
  subject: Subject,
  probe: PayloadProbe,
): Promise<void> {
  const outcome = await send(ctx, probe.body);
  const what = `[${state}] POST /actions reusing an idempotencyKey with ${probe.change}`;
  const accepted = success(outcome);
  if (accepted) {
    const created = await stray(ctx, subject, outcome);
    const which =
      created !== undefined ? `created action ${created}` : `returned the existing action ${subject.publicId}`;
    problemAt(
      f,
      ctx,
      outcome,
      `${what} was answered ${accepted.status} and ${which}; expected 409 ${REUSED_CODE}`,
      'ACTION-KEY-REUSE-409',
    );
    return;
  }
  // After the quote expired two stated rules apply ("an expired quote creates no action", 409 for a changed
  // payload) and the contract does not order them: QUOTE_EXPIRED refuses the order too, and is a warning.
  if (state === 'quote expired' && errorCode(outcome) === 'QUOTE_EXPIRED') {
    keepEvidence(f, outcome);
    f.warn(
      `${what} was answered ${describeAnswer(outcome)}; 409 ${REUSED_CODE} names the reused key (nothing was created)`,
      'ACTION-KEY-REUSE-409',
    );
    return;
  }
  if (!expectError(f, outcome, { what, statuses: [409], codes: [REUSED_CODE], requirement: 'ACTION-KEY-REUSE-409' }))
    markReproduce(f, ctx, outcome);
}

/** Every probe of one state, at most MAX_IN_FLIGHT requests at once. */
export async function probeState(
  ctx: CheckContext,
  f: Findings,
  state: ActionState,
  subject: Subject,
  table: PayloadContext,
): Promise<void> {
  const { probes, skipped } = changedPayloads(subject.body, table);
  if (state === 'open')
    for (const s of skipped)
      f.warn(`the changed-payload probe of ${s.field} is skipped: ${s.reason}`, 'ACTION-KEY-REUSE-409');
  await repeatSame(ctx, f, state, subject);
  await inPool(
    probes,
    (probe) => changedPayload(ctx, f, state, subject, probe),
    () => ctx.signal.aborted,
    MAX_IN_FLIGHT,
  );
}

/** A fresh action of its own, cancelled: the cancelled state. Undefined (with a note) when it cannot be reached. */
export async function cancelledSubject(ctx: CheckContext, f: Findings): Promise<Subject | undefined> {
  const info = await ctx.resources.providerInfo();
  if (!info.capabilities.includes('ACTION_CANCEL')) {
    f.note('the cancelled state is not probed: the provider does not declare ACTION_CANCEL');
    return undefined;
  }
  const created = await ctx.resources.createAction('idempotency-cancelled');
  noteRequoted(f, created.requoted);
  const { action } = created;
  const outcome = await ctx.client.send({
    method: 'POST',
    path: actionPath(action.id, '/cancel'),
    json: { reason: 'CUSTOMER_CANCELLED: provcert idempotency probe order' },
  });
  if ((success(outcome)?.json as { success?: unknown } | undefined)?.success !== true) {
    f.note(
      `the cancelled state is not probed: cancelling ${action.publicId} was answered ${describeAnswer(outcome)} (the cancel check judges it)`,
    );
    return undefined;
  }
  ctx.resources.markCancelled(action.id);
  return {
    id: action.id,
    publicId: action.publicId,
    answer: created.response.json,
    body: created.body,
    quote: created.quote,
  };
}

/**
 * The quote-expired state: once the open action's quote has expired, its key still returns it and still refuses a
 * changed payload. A quote that outlives the run's expiry wait leaves the state untested (never a pass).
 */
export async function probeAfterExpiry(
  ctx: CheckContext,
  f: Findings,
  open: Subject,
  table: PayloadContext,
): Promise<void> {
  const untested = (reason: string, remedy: string): void =>
    f.untested({ requirement: 'ACTION-DUPLICATE-SAME-ACTION', reason: `the quote-expired state: ${reason}`, remedy });
  const waited = await waitPastExpiry(
    ctx,
    open.quote.expiresAt,
    `idempotency: waiting for quote ${open.quote.id} to expire`,
  );
  if (waited.kind === 'unreadable')
    return untested(`quote ${open.quote.id} has no readable expiresAt`, 'fix expiresAt (quote-math names the rule)');
  if (waited.kind === 'too-long')
    return untested(
      `quote ${open.quote.id} expires in ${waited.waitS} s, longer than ${ctx.spell('maxExpiryWait', ctx.config.maxExpiryWait)}`,
      tooLongRemedy(ctx.spell, waited.waitS),
    );
  if (waited.kind === 'stopped') return untested('the run ended first', 'rerun without stopping it');
  await probeState(ctx, f, 'quote expired', open, table);
}
