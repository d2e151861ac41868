import type { RequirementId } from '../model/findings.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { cancelCreated } from './support/cancel-created.js';
import { describeAnswer, expectError } from './support/expect.js';
import { inPool } from './support/explore/pool.js';
import { malformedActions } from './support/probe-tables/malformed-action.js';
import { pinnedProbeTable, refusalCodes, withField } from './support/probe-tables/pinned-fields.js';
import { isQuoteExpired } from './support/quote-expired.js';
import { actionIdentity, markReproduce, problemAt, success } from './support/tx.js';
import { tryWithoutKey } from './support/without-key.js';

interface InvalidAction {
  describe: string;
  label: string;
  /** The body sent: JSON (any value, null included), or raw bytes that are not a JSON document. */
  change(body: Record<string, unknown>, seed: string): { json: unknown } | { raw: string };
  statuses: readonly number[];
  /** The expected ErrorResponse code; omitted = any code (the contract names none). */
  code?: string;
  /** Other codes that also answer it rightly (a missing userConfirmed is both a missing field and unconfirmed). */
  alsoCodes?: readonly string[];
  /** A missing field must never be reported as QUOTE_EXPIRED (rule 2). */
  missingField: boolean;
  /** The rule an accepted request breaks, and the rule a wrong refusal breaks. */
  acceptedViolates: RequirementId;
  refusalViolates: RequirementId;
}

const without =
  (field: string) =>
  (body: Record<string, unknown>): { json: unknown } => {
    const copy = { ...body };
    delete copy[field];
    return { json: copy };
  };

/** Invalid requests in flight at once (the pinned-field table adds a dozen). */
const CASES_IN_FLIGHT = 6;

const CLIENT_ERROR_STATUSES = Array.from({ length: 100 }, (_, i) => 400 + i);

const MISSING_FIELD = {
  statuses: [400, 422],
  code: 'VALIDATION_ERROR',
  missingField: true,
  acceptedViolates: 'ACTION-INPUT-REQUIRED-FIELDS',
  refusalViolates: 'ACTION-MISSING-FIELD-VALIDATION-ERROR',
} as const;

const CASES: InvalidAction[] = [
  { describe: 'a missing quoteId', label: 'missing-quote-id', change: without('quoteId'), ...MISSING_FIELD },
  {
    describe: 'a missing providerSlug',
    label: 'missing-provider-slug',
    change: without('providerSlug'),
    ...MISSING_FIELD,
  },
  // userConfirmed is "required; must be true": without it, VALIDATION_ERROR (a missing field, 400/422) and
  // ACTION_NOT_CONFIRMED (any 4xx) are both right; never an action.
  {
    describe: 'a missing userConfirmed',
    label: 'missing-user-confirmed',
    change: without('userConfirmed'),
    statuses: CLIENT_ERROR_STATUSES,
    code: 'VALIDATION_ERROR',
    alsoCodes: ['ACTION_NOT_CONFIRMED'],
    missingField: true,
    acceptedViolates: 'ACTION-NOT-CONFIRMED',
    refusalViolates: 'ACTION-NOT-CONFIRMED',
  },
  // The contract names no code for a quote it never issued: any 4xx ErrorResponse refuses it.
  {
    describe: 'a quoteId the provider never issued',
    label: 'unknown-quote',
    change: (b, seed) => ({ json: { ...b, quoteId: `provcert-unknown-quote-${seed}` } }),
    statuses: CLIENT_ERROR_STATUSES,
    missingField: false,
    acceptedViolates: 'ACTION-REQUIRES-QUOTE-AND-CONFIRMATION',
    refusalViolates: 'ACTION-REQUIRES-QUOTE-AND-CONFIRMATION',
  },
];

/**
 * The pinned-field table for POST /actions (probe-tables/pinned-fields.ts): each pinned field with every other
 * JSON value, refused with its documented code (any 4xx: the contract shows no status for ACTION_NOT_CONFIRMED).
 */
function pinnedCases(ctx: CheckContext, f: Findings): InvalidAction[] {
  const operation = ctx.contract.operation('POST /actions');
  if (!operation) return [];
  return pinnedProbeTable(operation).flatMap((probe, i): InvalidAction[] => {
    const name = probe.field.path.join('.');
    if (!probe.rule) {
      f.warn(
        `POST /actions field ${name} is pinned to ${JSON.stringify(probe.field.value)} by the spec, but provcert knows no rule for it: not tested`,
      );
      return [];
    }
    const [code, ...alsoCodes] = refusalCodes(probe.rule, probe.field, probe.sent);
    return [
      {
        describe: `${name} ${probe.sent.describe}`,
        label: `pinned-${i}`,
        change: (b) => ({ json: withField(b, probe.field.path, probe.sent.value) }),
        statuses: CLIENT_ERROR_STATUSES,
        ...(code ? { code } : {}),
        alsoCodes,
        missingField: false,
        acceptedViolates: probe.rule.requirement,
        refusalViolates: probe.rule.requirement,
      },
    ];
  });
}

/**
 * The malformed-input table for POST /actions (probe-tables/malformed-action.ts): each row must get a 4xx
 * ErrorResponse (any code: "400 INVALID_ARGUMENT … invalid parameter or validation failure") and create nothing.
 * Each JSON row keeps its own idempotencyKey, so no row is read as a retry of another.
 */
function malformedCases(): InvalidAction[] {
  return malformedActions({}).map((row) => ({
    describe: row.what,
    label: `malformed-${row.label}`,
    change: (valid) => {
      const own = malformedActions(valid).find((r) => r.label === row.label) ?? row;
      return 'raw' in own ? { raw: own.raw } : { json: own.body };
    },
    statuses: CLIENT_ERROR_STATUSES,
    missingField: false,
    acceptedViolates: 'ERROR-CODES-DOCUMENTED',
    refusalViolates: 'ERROR-CODES-DOCUMENTED',
  }));
}

async function tryCase(
  ctx: CheckContext,
  f: Findings,
  c: InvalidAction,
  valid: Record<string, unknown>,
): Promise<void> {
  const what = `POST /actions with ${c.describe}`;
  const sent = c.change(valid, ctx.config.seed);
  const outcome = await ctx.client.send(
    'raw' in sent
      ? { method: 'POST', path: '/actions', rawBody: sent.raw }
      : { method: 'POST', path: '/actions', json: sent.json },
  );
  const accepted = success(outcome);
  if (accepted) {
    const created = actionIdentity(accepted.json);
    if (created.id !== undefined) {
      ctx.resources.noteCreatedAction({
        id: created.id,
        ...(created.publicId !== undefined ? { publicId: created.publicId } : {}),
      });
      await cancelCreated(ctx, created.id);
    }
    const name = created.publicId ?? created.id;
    const expected = `${c.statuses.length <= 2 ? c.statuses.join('/') : '4xx'} ${c.code ?? 'ErrorResponse'}`;
    problemAt(
      f,
      ctx,
      outcome,
      `${what} was accepted (HTTP ${accepted.status})${name ? ` and created action ${name}` : ''}; expected ${expected} and no action`,
      c.acceptedViolates,
    );
    return;
  }
  if (c.missingField && isQuoteExpired(outcome)) {
    problemAt(
      f,
      ctx,
      outcome,
      `${what} was answered ${describeAnswer(outcome)}; a missing required field must give HTTP 400 or 422 VALIDATION_ERROR, never QUOTE_EXPIRED`,
      // The sentence about this answer, whichever field is missing: "(never QUOTE_EXPIRED)".
      'ACTION-MISSING-FIELD-VALIDATION-ERROR',
    );
    return;
  }
  if (
    !expectError(f, outcome, {
      what,
      statuses: c.statuses,
      ...(c.code ? { codes: [c.code, ...(c.alsoCodes ?? [])] } : {}),
      requirement: c.refusalViolates,
    })
  )
    markReproduce(f, ctx, outcome);
}

export const check: CheckDefinition = {
  id: 'action-validation',
  group: 'transactional',
  title: 'Invalid action requests are rejected and create nothing',
  rule: 'Contract, Provider route behaviour rule 2: "missing fields give HTTP 400 or 422 with code VALIDATION_ERROR (never QUOTE_EXPIRED). Requires userConfirmed: true; otherwise rejected with ACTION_NOT_CONFIRMED"; Errors: "| 400 | INVALID_ARGUMENT | invalid parameter or validation failure |" (a malformed body)',
  requirements: [
    'ACTION-REQUIRES-QUOTE-AND-CONFIRMATION',
    'ACTION-INPUT-REQUIRED-FIELDS',
    'ACTION-MISSING-FIELD-VALIDATION-ERROR',
    'ACTION-NOT-CONFIRMED',
    'ERROR-CODES-DOCUMENTED',
  ],
  needs: ['quote-math'],
  appliesTo: { operations: ['POST /actions'], description: 'providers with ACTION_CREATE (required in TRANSACTIONAL)' },
  async run(ctx) {
    const f = new Findings();
    // A fresh, valid quote: only the field under test is wrong.
    const { quote } = await ctx.resources.freshQuote();
    const malformed = malformedCases();
    const cases = [...CASES, ...pinnedCases(ctx, f), ...malformed];
    await inPool(
      cases,
      (c) =>
        tryCase(
          ctx,
          f,
          c,
          ctx.resources.actionBody(quote, ctx.resources.idempotencyKey(`action-validation-${c.label}`)),
        ),
      () => ctx.signal.aborted,
      CASES_IN_FLIGHT,
    );
    // An order without idempotencyKey (optional in the contract): accepted and cancelled, or refused as a missing field.
    // On a quote of its own, fresh: the invalid cases may have taken the first one's validity.
    const own = await ctx.resources.freshQuote();
    const withoutKey = await tryWithoutKey(ctx, f, ctx.resources.actionBody(own.quote, ''));
    return f.outcome(
      `missing quoteId and providerSlug were answered VALIDATION_ERROR; ${cases.length - CASES.length - malformed.length} pinned-field values (userConfirmed false, "true", 1, null, [], {} …) were refused with their documented code; an unknown quoteId was refused; ${malformed.length} malformed bodies (not JSON, empty, a null item, items or selectedOptions of another JSON type) got a 4xx ErrorResponse; nothing was created; an order without idempotencyKey was ${withoutKey === 'accepted' ? 'accepted (the key is optional) and cancelled where the provider can' : 'refused as a missing field'}`,
    );
  },
};
