import type { HttpOutcome } from '../http/types.js';
import { eventIdentity, type ReceivedWebhook } from '../model/webhooks.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import type { ActionView } from './framework/views.js';
import { Findings } from './outcome.js';
import { keepEvidence } from './support/evidence.js';
import { expectError, expectJson, schemaRequirement, schemaWarnings } from './support/expect.js';
import { compareIdentity, describeMismatch } from './support/probe-tables/identity.js';
import { actionPath, markReproduce, problemAt } from './support/tx.js';

/**
 * The status GET reports, judged against the webhook events (contract rule 3: "reflects the same order
 * identity and authoritative state as the webhook events"). Transitions are "not shown", so a provider may
 * have advanced the action (PROCESSING, PAID…): a status equal to the one at creation or to one an event
 * announced is fine; another one is a warning, since its event may still be on the way.
 */
export function judgeReportedStatus(
  reported: unknown,
  atCreation: string,
  announced: readonly string[],
): string | undefined {
  if (reported === atCreation || (typeof reported === 'string' && announced.includes(reported))) return undefined;
  const events =
    announced.length > 0 ? `the status events announced ${announced.join(', ')}` : 'no status event announced it yet';
  return `reports status ${JSON.stringify(reported)}; creation answered ${atCreation} and ${events}`;
}

/** newStatus of every verified event received so far about this action (by id or publicId). */
export function announcedStatuses(received: readonly ReceivedWebhook[], action: ActionView): string[] {
  const ids = new Set([action.id, action.publicId]);
  return received.flatMap((w) => {
    const e = eventIdentity(w);
    return w.verified && e.actionId !== undefined && ids.has(e.actionId) && e.newStatus ? [e.newStatus] : [];
  });
}

/**
 * One GET: by `id` the route's own lookup (contract: GET /actions/{id}), so every problem fails; by
 * `publicId` a convenience the contract does not state, so there every problem is a warning.
 */
function compare(
  ctx: CheckContext,
  f: Findings,
  outcome: HttpOutcome,
  by: 'id' | 'publicId',
  created: ActionView,
): void {
  const what = `GET /actions/${created[by]} (by ${by})`;
  if (by === 'publicId') {
    const ok = outcome.kind === 'response' && outcome.status === 200 && outcome.bodyKind === 'json';
    if (!ok) {
      f.warn(`${what} did not answer 200 with the action; the contract looks actions up by id`, 'ROUTE-ACTION-STATUS');
      return;
    }
  }
  if (!expectJson(f, outcome, `${what} (action ${created.publicId})`, 200, 'ROUTE-ACTION-STATUS'))
    return markReproduce(f, ctx, outcome);
  const response = outcome;
  const report = (text: string, requirement: string) =>
    by === 'id' ? problemAt(f, ctx, response, text, requirement) : f.warn(text, requirement);
  const validation = ctx.contract.validateResponse('GET /actions/{id}', 200, response.json);
  schemaWarnings(f, validation?.warnings ?? [], what);
  for (const p of validation?.problems ?? [])
    report(
      `${what} does not match NormalizedAction: ${p.text}`,
      schemaRequirement(p, 'ACTION-REQUIRED-FIELDS', response.json),
    );
  // The order's identity (probe-tables/identity.ts): every identity field of the creation answer, repeated.
  const { mismatches, absent } = compareIdentity('GET /actions/{id}', created, response.json);
  for (const m of mismatches) report(`${what} ${describeMismatch(m)}`, 'ACTION-STATUS-SAME-IDENTITY');
  if (absent.length > 0)
    f.warn(
      `${what} leaves out ${absent.join(', ')}, which creation answered (an omitted optional field is no failure, but the views of one order should agree)`,
      'ACTION-STATUS-SAME-IDENTITY',
    );
  const got = response.json as { status?: unknown };
  const status = judgeReportedStatus(got.status, created.status, announcedStatuses(ctx.webhooks.all(), created));
  if (status) f.warn(`${what} ${status}`, 'ACTION-STATUS-SAME-IDENTITY');
}

export const check: CheckDefinition = {
  id: 'action-status',
  group: 'transactional',
  title: 'Action status reflects the same order by id',
  rule: 'Contract, Provider route behaviour rule 3: "GET /actions/{id} reflects the same order identity and authoritative state as the webhook events"; Errors: 404 NOT_FOUND "endpoint or id does not exist"',
  requirements: [
    'ACTION-STATUS-SAME-IDENTITY',
    'ROUTE-ACTION-STATUS',
    'ACTION-REQUIRED-FIELDS',
    'ACTION-STATUS-ENUM',
    'PAYMENT-STATUS-VALUES',
    'TIMESTAMPS-ISO8601',
    'ERROR-NOT-FOUND',
  ],
  appliesTo: {
    operations: ['GET /actions/{id}'],
    description: 'providers with ACTION_STATUS (required in TRANSACTIONAL)',
  },
  dependsOn: ['payment-pending'],
  async run(ctx) {
    const f = new Findings();
    const { action } = await ctx.resources.pendingAction();
    const lookups: ('id' | 'publicId')[] = action.publicId === action.id ? ['id'] : ['id', 'publicId'];
    const unknownId = `provcert-unknown-${ctx.config.seed}`;
    const [unknown, ...answers] = await Promise.all(
      [unknownId, ...lookups.map((by) => action[by])].map((id) =>
        ctx.client.send({ method: 'GET', path: actionPath(id) }),
      ),
    );
    answers.forEach((outcome, i) => compare(ctx, f, outcome, lookups[i] ?? 'id', action));
    if (
      unknown &&
      !expectError(f, unknown, {
        what: `GET /actions/${unknownId} (an id that does not exist)`,
        statuses: [404],
        codes: ['NOT_FOUND'],
        requirement: 'ERROR-NOT-FOUND',
      })
    )
      markReproduce(f, ctx, unknown);
    if (!f.failed) for (const o of answers) keepEvidence(f, o);
    return f.outcome(
      `GET /actions/${action.id} agrees with creation (identity, total ${action.total}; status judged against the status events); an unknown id answers 404`,
    );
  },
};
