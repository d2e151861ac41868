import type { HttpOutcome } from '../http/types.js';
import { Findings } from './outcome.js';
import { keepEvidence } from './support/evidence.js';
import { expectError, expectJson, schemaRequirement, schemaWarnings } from './support/expect.js';
import { actionPath, markReproduce, problemAt } from './support/tx.js';
import type { CheckContext, CheckDefinition } from './types.js';
import type { ActionView } from './views.js';

/** Fields whose value GET /actions/{id} must repeat from the creation answer. */
const SAME_FIELDS = ['id', 'publicId', 'providerSlug', 'status', 'subtotal', 'total'] as const;

function compare(ctx: CheckContext, f: Findings, outcome: HttpOutcome, by: string, created: ActionView): void {
  const what = `GET /actions/${by}`;
  if (!expectJson(f, outcome, `${what} (action ${created.publicId})`, 200, 'ROUTE-ACTION-STATUS'))
    return markReproduce(f, ctx, outcome);
  const response = outcome;
  const validation = ctx.contract.validateResponse('GET /actions/{id}', 200, response.json);
  schemaWarnings(f, validation?.warnings ?? [], what);
  for (const p of validation?.problems ?? [])
    problemAt(
      f,
      ctx,
      response,
      `${what} does not match NormalizedAction: ${p.text}`,
      schemaRequirement(p, 'ACTION-REQUIRED-FIELDS', response.json),
    );
  const got = response.json as Partial<Record<(typeof SAME_FIELDS)[number], unknown>>;
  for (const field of SAME_FIELDS) {
    if (got[field] !== created[field])
      problemAt(
        f,
        ctx,
        response,
        `${what} reports ${field} ${JSON.stringify(got[field])}; creation answered ${JSON.stringify(created[field])}`,
      );
  }
}

export const check: CheckDefinition = {
  id: 'action-status',
  title: 'Action status reflects the same order by id and by publicId',
  rule: 'Contract, Provider route behaviour rule 3: "GET /actions/{id} reflects the same order identity and authoritative state"; Errors: 404 NOT_FOUND "endpoint or id does not exist"',
  requirements: [
    'ACTION-STATUS-SAME-IDENTITY',
    'ROUTE-ACTION-STATUS',
    'ACTION-REQUIRED-FIELDS',
    'ACTION-STATUS-ENUM',
    'TIMESTAMPS-ISO8601',
    'ERROR-NOT-FOUND',
  ],
  appliesTo: {
    operations: ['GET /actions/{id}'],
    description: 'providers with ACTION_STATUS (required in TRANSACTIONAL)',
  },
  dependsOn: ['payment-pending'],
  createsOrders: true,
  async run(ctx) {
    const f = new Findings();
    const { action } = await ctx.resources.pendingAction();
    const ids = [...new Set([action.id, action.publicId])];
    const unknownId = `provcert-unknown-${ctx.config.seed}`;
    const [unknown, ...byId] = await Promise.all(
      [unknownId, ...ids].map((id) => ctx.client.send({ method: 'GET', path: actionPath(id) })),
    );
    byId.forEach((outcome, i) => compare(ctx, f, outcome, ids[i] ?? '', action));
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
    if (!f.failed) for (const o of byId) keepEvidence(f, o);
    return f.outcome(
      `GET /actions by id ${action.id} and by publicId ${action.publicId} agree with creation (${action.status}, total ${action.total}); an unknown id answers 404`,
    );
  },
};
