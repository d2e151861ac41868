import type { CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { unsafeReasonContent } from './support/event-reason.js';
import { keepEvidence } from './support/evidence.js';
import { expectJson } from './support/expect.js';
import { compareIdentity, describeMismatch } from './support/probe-tables/identity.js';
import { actionPath, markReproduce, noteRequoted, problemAt } from './support/tx.js';

/** A stable reason code plus a safe human description, as the contract advises. */
const CANCEL_REASON = 'CUSTOMER_CANCELLED: provcert certification test order, cancelled by the test';

export const check: CheckDefinition = {
  id: 'cancel',
  group: 'transactional',
  title: 'Cancelling a pending action',
  rule: 'Contract, CancelActionResult: "actionId (string, the service\'s public reference) … A provider\'s own identifier is returned separately as externalActionId and never replaces actionId"; States: AWAITING_PAYMENT → POST /actions/{id}/cancel → CANCELLED, previousStatus AWAITING_PAYMENT',
  requirements: [
    'CANCEL-AWAITING-PAYMENT',
    'CANCEL-RESULT-REQUIRED-FIELDS',
    'CANCEL-ACTION-ID-NOT-EXTERNAL',
    'REASON-NO-SECRETS',
  ],
  needs: ['payment-pending'],
  appliesTo: { operations: ['POST /actions/{id}/cancel'], description: 'providers that declare ACTION_CANCEL' },
  async run(ctx) {
    const f = new Findings();
    // Its own action, so the other checks' pending action stays pending.
    const { action, requoted } = await ctx.resources.createAction('cancel');
    noteRequoted(f, requoted);
    const path = actionPath(action.id, '/cancel');
    const what = `POST /actions/${action.id}/cancel`;
    const outcome = await ctx.client.send({ method: 'POST', path, json: { reason: CANCEL_REASON } });
    if (!expectJson(f, outcome, `${what} (a pending action)`)) {
      markReproduce(f, ctx, outcome);
      return f.outcome('');
    }
    const response = outcome;
    for (const p of ctx.contract.validateResponse('POST /actions/{id}/cancel', 200, response.json)?.problems ?? []) {
      problemAt(
        f,
        ctx,
        response,
        `${what} does not match CancelActionResult: ${p.text}`,
        'CANCEL-RESULT-REQUIRED-FIELDS',
      );
    }
    const result = response.json as {
      success?: unknown;
      actionId?: unknown;
      previousStatus?: unknown;
      newStatus?: unknown;
      message?: unknown;
    };
    if (result.success === true) ctx.resources.markCancelled(action.id);
    else
      problemAt(
        f,
        ctx,
        response,
        `${what} answered success ${JSON.stringify(result.success)}; expected true for a pending action`,
      );

    if (
      action.externalActionId !== undefined &&
      result.actionId === action.externalActionId &&
      action.externalActionId !== action.publicId
    ) {
      problemAt(
        f,
        ctx,
        response,
        `the cancel result's actionId is the provider's externalActionId ${action.externalActionId}; expected the public reference ${action.publicId} (externalActionId never replaces actionId)`,
        'CANCEL-ACTION-ID-NOT-EXTERNAL',
      );
    } else if (result.actionId === action.id && action.id !== action.publicId) {
      f.warn(
        `the cancel result's actionId is the action id ${action.id}, not its public reference ${action.publicId}`,
        'CANCEL-RESULT-REQUIRED-FIELDS',
      );
    } else if (result.actionId !== action.publicId && result.actionId !== action.id) {
      problemAt(
        f,
        ctx,
        response,
        `the cancel result's actionId is ${JSON.stringify(result.actionId)}; expected the public reference ${action.publicId}`,
        'CANCEL-RESULT-REQUIRED-FIELDS',
      );
    }
    // The same order: what else the result says about it (externalActionId, and any identity field it carries).
    for (const m of compareIdentity('cancel result', action, response.json).mismatches)
      problemAt(
        f,
        ctx,
        response,
        `the cancel result ${describeMismatch(m)}`,
        m.field === 'externalActionId' ? 'CANCEL-ACTION-ID-NOT-EXTERNAL' : 'CANCEL-RESULT-REQUIRED-FIELDS',
      );
    const unsafe = typeof result.message === 'string' ? unsafeReasonContent(result.message, ctx.secrets) : undefined;
    if (unsafe)
      problemAt(
        f,
        ctx,
        response,
        `the cancel result's message contains ${unsafe}; a reason or description must not contain secrets, card data, passwords or one-time codes`,
        'REASON-NO-SECRETS',
      );
    if (result.previousStatus !== 'AWAITING_PAYMENT')
      problemAt(
        f,
        ctx,
        response,
        `the cancel result's previousStatus is ${JSON.stringify(result.previousStatus)}; the action was AWAITING_PAYMENT`,
      );
    if (result.newStatus !== 'CANCELLED')
      problemAt(
        f,
        ctx,
        response,
        `the cancel result's newStatus is ${JSON.stringify(result.newStatus)}; expected CANCELLED`,
      );

    const after = await ctx.client.send({ method: 'GET', path: actionPath(action.id) });
    const status =
      after.kind === 'response' && after.status === 200
        ? (after.json as { status?: unknown } | null)?.status
        : undefined;
    if (status !== 'CANCELLED') {
      const found =
        after.kind === 'response' && after.status === 200
          ? `status ${JSON.stringify(status)}`
          : `HTTP ${after.kind === 'response' ? after.status : after.message}`;
      problemAt(
        f,
        ctx,
        after,
        `after a successful cancel, GET /actions/${action.id} reports ${found}; expected status CANCELLED`,
      );
    }
    if (!f.failed) keepEvidence(f, response);
    return f.outcome(
      `action ${action.publicId} cancelled: actionId ${String(result.actionId)}, AWAITING_PAYMENT → CANCELLED, and GET agrees`,
    );
  },
};
