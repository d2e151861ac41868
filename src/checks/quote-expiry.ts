import { parseIsoTimestamp } from '../contract/timestamp.js';
import type { CheckOutcome } from '../model/report.js';
import type { SpellSetting } from '../model/setting-speller.js';
import { PrerequisiteError } from './framework/resources.js';
import type { CheckDefinition } from './framework/types.js';
import { Findings, skip } from './outcome.js';
import { keepEvidence } from './support/evidence.js';
import { describeAnswer, expectError } from './support/expect.js';
import { tooLongRemedy, waitPastExpiry } from './support/expiry-margin.js';
import { QUOTE_EXPIRED_STATUSES } from './support/quote-expired.js';
import { actionIdentity, actionPath, markReproduce, problemAt, success } from './support/tx.js';

/**
 * The outcome when the quote outlives the wait the run allows: "the provider controls expiresAt", so a long validity
 * breaks no rule; the rule is not tested (untested, the run INCOMPLETE), naming the setting that tests it.
 */
function tooLongToWait(validityS: number, maxWaitS: number, quoteId: string, spell: SpellSetting): CheckOutcome {
  const f = new Findings();
  f.untested({
    requirement: 'ACTION-EXPIRED-QUOTE-NO-ACTION',
    reason: `quote ${quoteId} is valid for ${validityS} s, longer than the run waits for a quote to expire (${spell('maxExpiryWait', maxWaitS)})`,
    remedy: tooLongRemedy(spell, validityS),
  });
  return f.outcome('');
}

export const check: CheckDefinition = {
  id: 'quote-expiry',
  group: 'transactional',
  title: 'An expired quote creates no action',
  rule: 'Contract, Provider route behaviour rule 2: "An expired quote creates no action"; Errors: QUOTE_EXPIRED "quote is past its expiry; an expired quote creates no action"',
  requirements: [
    'ACTION-EXPIRED-QUOTE-NO-ACTION',
    'ACTION-QUOTE-EXPIRED-CODE',
    'ACTION-MISSING-FIELD-VALIDATION-ERROR',
  ],
  needs: ['quote-math'],
  appliesTo: { operations: ['POST /actions'], description: 'providers with ACTION_CREATE (required in TRANSACTIONAL)' },
  waitsForQuoteExpiry: true,
  async run(ctx) {
    const f = new Findings();
    // Quote first, so the wait for expiry overlaps every other check.
    const { quote } = await ctx.resources.freshQuote();
    if (parseIsoTimestamp(quote.expiresAt) === undefined) {
      // A format problem of the quote, which quote-math fails on (TIMESTAMPS-ISO8601); it breaks no expiry rule,
      // and a quote whose expiry cannot be read cannot be tested for it. One root cause, one red: skipped naming it.
      // (The bundled spec's schema already refuses such a quote in freshQuote; a --spec without the format gets here.)
      throw new PrerequisiteError(
        'quote-math',
        `quote ${quote.id} has expiresAt "${quote.expiresAt}", which is not an ISO 8601 timestamp (TIMESTAMPS-ISO8601), so when it expires is not known and the expiry was not tested`,
        { requirement: 'TIMESTAMPS-ISO8601' },
      );
    }

    const waited = await waitPastExpiry(ctx, quote.expiresAt, `waiting for quote ${quote.id} to expire`);
    // "The provider controls expiresAt": a long validity breaks no rule; the rule is not tested (untested, not fail).
    if (waited.kind === 'too-long') return tooLongToWait(waited.waitS, ctx.config.maxExpiryWait, quote.id, ctx.spell);
    if (waited.kind !== 'expired') return skip('the run ended before the quote expired');

    const body = ctx.resources.actionBody(quote, ctx.resources.idempotencyKey('quote-expiry'));
    // "validates required fields first … (never QUOTE_EXPIRED)": a missing field with the expired quote.
    const { providerSlug: _left, ...missingField } = body;
    const incomplete = await ctx.client.send({ method: 'POST', path: '/actions', json: missingField });
    if (
      !expectError(f, incomplete, {
        what: `POST /actions without providerSlug, with quote ${quote.id} (expired at ${quote.expiresAt})`,
        statuses: [400, 422],
        codes: ['VALIDATION_ERROR'],
        requirement: 'ACTION-MISSING-FIELD-VALIDATION-ERROR',
      })
    )
      markReproduce(f, ctx, incomplete);
    const what = `POST /actions with quote ${quote.id} (expired at ${quote.expiresAt})`;
    const outcome = await ctx.client.send({ method: 'POST', path: '/actions', json: body });
    const accepted = success(outcome);
    if (accepted) {
      const created = actionIdentity(accepted.json);
      if (created.id !== undefined) {
        ctx.resources.noteCreatedAction({
          id: created.id,
          ...(created.publicId !== undefined ? { publicId: created.publicId } : {}),
        });
        keepEvidence(f, await ctx.client.send({ method: 'GET', path: actionPath(created.id) }));
      }
      const name = created.publicId ?? created.id;
      problemAt(
        f,
        ctx,
        outcome,
        `${what} was answered ${accepted.status}${name ? ` and created action ${name}` : ''}; expected an ErrorResponse with code QUOTE_EXPIRED and no action`,
      );
      return f.outcome('');
    }
    if (
      !expectError(f, outcome, {
        what,
        statuses: QUOTE_EXPIRED_STATUSES,
        codes: ['QUOTE_EXPIRED'],
        requirement: 'ACTION-QUOTE-EXPIRED-CODE',
      })
    )
      markReproduce(f, ctx, outcome);
    return f.outcome(`${what} was rejected with QUOTE_EXPIRED (${describeAnswer(outcome)})`);
  },
};
