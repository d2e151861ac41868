import { describe, expect, it } from 'vitest';
import { checkById, checkIdsIn } from '../../src/checks/framework/registry.js';
import type { CheckId } from '../../src/model/check-ids.js';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import { certify, FAULTS } from '../support/certify.js';
import { strayFailCitations, undeclaredCitations } from '../support/citations.js';

/** The transactional checks, proven both ways against the reference provider over loopback. */
const TX_IDS = checkIdsIn('transactional');

const result = (report: RunReport, id: CheckId): CheckResult => {
  const found = report.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no result for ${id}`);
  return found;
};

const explain = (r: CheckResult): string =>
  `${r.id}: ${r.status} — ${r.message}${r.details ? `\n  ${r.details.join('\n  ')}` : ''}`;

/** What each fault's failure message must name (the problem, in the check's words). */
const NAMES: Record<string, RegExp> = {
  'quote-total-wrong': /^total is \d+; expected \d+ = /,
  'quote-subtotal-wrong': /^subtotal is \d+; expected/,
  'option-not-multiplied': /optionsTotal is \d+; expected \d+ = .*× 2/,
  'fees-not-summing': /^totalFees is \d+; expected/,
  'quote-validity-short': /expiresAt .* is only [\d.]+ s after the request; the minimum quote validity is 5 s/,
  'unavailable-item-substituted': /^silent substitution: POST \/quote with unavailable offering/,
  'option-limits-unchecked': /POST \/quote with \d+ options in group .* \(maxSelections \d+\) was accepted/,
  'quantity-unchecked': /POST \/quote with quantity 0 .* was accepted/,
  'quantity-fraction-accepted':
    /POST \/quote with quantity 1\.5 for offering .* was accepted .*; expected a 4xx ErrorResponse/,
  'option-quantity-unchecked':
    /POST \/quote with option .* with quantity -1 on offering .* was accepted .*; expected a 4xx ErrorResponse/,
  'required-group-unchecked':
    /POST \/quote with offering .* without a choice in its required option group .* was accepted/,
  'expired-quote-accepted': /expired at .* was answered 20\d and created action/,
  'expired-quote-checked-first':
    /POST \/actions without providerSlug, with quote .* \(expired at .*\) was answered HTTP 422 with code QUOTE_EXPIRED; expected 400 or 422 VALIDATION_ERROR/,
  'expired-quote-wrong-code':
    /expired at .* was answered HTTP 4\d\d with code INVALID_ARGUMENT; expected .*QUOTE_EXPIRED/,
  'missing-field-quote-expired':
    /was answered HTTP \d+ QUOTE_EXPIRED; a missing required field must give HTTP 400 or 422 VALIDATION_ERROR/,
  'unconfirmed-action-accepted': /POST \/actions with userConfirmed false was accepted .* and created action/,
  'user-confirmed-truthy': /POST \/actions with userConfirmed "true" was accepted .* and created action/,
  'missing-next-action': /has no nextAction/,
  'next-action-empty': /has a nextAction with neither type nor url/,
  'payment-invented': /^payment success invented: .* paymentStatus PAID/,
  'action-status-mismatch': /reports publicId ".*-OTHER"; creation answered ".*": not the same order/,
  'unknown-action-found': /GET \/actions\/provcert-unknown-.* was answered HTTP 200; expected 404 NOT_FOUND/,
  'duplicate-creates-new': /sequential duplicate .* returned action .*; expected the existing action/,
  'concurrent-duplicates-race': /concurrent duplicates .* created \d+ actions/,
  'changed-payload-accepted':
    /reusing an idempotencyKey with a different customer name was answered 200 with the existing action; expected 409 IDEMPOTENCY_KEY_REUSED_WITH_DIFFERENT_PAYLOAD|reusing an idempotencyKey .* expected 409/,
  'webhook-wrong-secret': /rejected by the receiver \(HTTP 401: .*secret/i,
  'webhook-reserialized': /rejected by the receiver \(HTTP 401: .*(re-serialized|pretty-printed)/i,
  'webhook-noncanonical-header': /rejected by the receiver \(HTTP 401: .*x-signature/i,
  'webhook-not-sent':
    /^no webhook event arrived at http:\/\/127\.0\.0\.1:\d+\/api\/v1\/webhooks\/demo-kitchen within \d+ ms; is the provider's webhook URL set to it\?/,
  'webhook-status-mismatch':
    /latest event for action .* says newStatus CONFIRMED; GET \/actions\/.* says "AWAITING_PAYMENT"/,
  'cancel-returns-external-id': /actionId is the provider's externalActionId .*; expected the public reference/,
  'payment-options-not-array': /answered an object with keys options; expected a top-level array of PaymentOption/,
  'quote-expired-early':
    /^POST \/actions with quote \S+ and the unchanged quoted order was answered QUOTE_EXPIRED \d+\.\d s before the quote's expiresAt \(HTTP 422 QUOTE_EXPIRED/,
  'actions-held-past-expiry':
    /^POST \/actions with quote \S+ and the unchanged quoted order left provcert \d+\.\d s before the quote's expiresAt \(its last byte, measured\), and the provider held it and answered QUOTE_EXPIRED \d+\.\d s after it/,
  'quote-binding-items-ignored':
    /POST \/actions with quote .* with (quantity \d+ instead of \d+|offering .* instead of .*) .*was answered 20\d and created action .*; a quote cannot authorize a different order/,
  'quote-binding-destination-ignored':
    /POST \/actions with quote .* with destination .* was answered 20\d and created action .*; a quote cannot authorize a different order/,
  'fees-charge-options': /fee ".*" \(\d+\) equals the options' contribution .*never again in fees/,
  'webhook-event-type-other':
    /the events about test action .* have eventType order\.updated; each created test order dispatches a signed action\.status_updated event/,
  'terminal-event-no-reason': /event .* reports the terminal status CANCELLED without reasonCode and reason/,
  'reason-leaks-card': /event .* has a reason that contains a card number/,
  'reason-leaks-secret': /event .* has a reason that contains this run's credential or webhook secret/,
  'reason-leaks-identity-document': /event .* has a reason that contains an identity document number/,
  'unavailable-variant-substituted':
    /^silent substitution: POST \/quote with unavailable variant .* was answered 200 quoting/,
  'payment-status-failed': /the created action .* has paymentStatus FAILED; expected PENDING/,
  'action-created-confirmed': /the created action .* has status CONFIRMED; expected AWAITING_PAYMENT/,
  'action-missing-created-at': /GET \/actions\/.* does not match NormalizedAction: .*createdAt/,
  'payment-option-missing-type': /GET \/actions\/.*\/payment-options does not match an array of PaymentOption: .*type/,
  'cancel-result-no-message': /POST \/actions\/.*\/cancel does not match CancelActionResult: .*message/,
  'cancel-action-id-quote': /the cancel result's actionId is "[^"]+"; expected the public reference/,
  'action-total-not-quoted': /the created action .* has total \d+; quote .* says \d+/,
  'cancel-previous-status-wrong': /the cancel result's previousStatus is "CREATED"; the action was AWAITING_PAYMENT/,
  'quote-missing-expiry': /POST \/quote answer does not match NormalizedQuote: .*expiresAt/,
  'quote-line-total-wrong': /line 2 lineTotal is \d+; expected \d+ = \d+ × \d+ \+ \d+/,
  'webhook-event-no-timestamp': /rejected by the receiver \(HTTP 400: .*timestamp/,
  'quote-expires-at-not-iso': /\/expiresAt must be a valid ISO 8601/,
  'quote-total-not-integer': /\/total must be integer/,
  'action-created-at-not-iso': /POST \/actions does not match the schema \(\/createdAt must be a valid ISO 8601/,
  'action-total-not-integer': /POST \/actions does not match the schema \(\/total must be integer/,
  'action-created-missing-public-id': /POST \/actions does not match the schema \(.*publicId/,
  'action-created-internal-status': /POST \/actions does not match the schema \(\/status must be one of/,
  'action-updated-at-not-iso':
    /GET \/actions\/.* does not match NormalizedAction: \/updatedAt must be a valid ISO 8601/,
  'action-status-payment-unknown': /GET \/actions\/.* does not match NormalizedAction: \/paymentStatus must be one of/,
  'cancel-message-leaks-card': /the cancel result's message contains .*card/,
  'webhook-timestamp-not-iso': /rejected by the receiver \(HTTP 400: .*\/timestamp must be a valid ISO 8601/,
  'webhook-status-internal': /rejected by the receiver \(HTTP 400: .*\/newStatus must be one of/,
  'webhook-slug-mismatch':
    /rejected by the receiver \(HTTP 400: providerSlug "demo-kitchen-other" in the body does not match/,
  'webhook-content-type-text':
    /rejected by the receiver \(HTTP 415: Content-Type must be application\/json \(found "text\/plain"\)\)/,
  'quote-quantity-inflated': /quote line 1 \(offering .*\) has quantity 3; 2 was selected/,
  'quote-route-missing': /POST \/quote for the .* answered HTTP 404 NOT_FOUND; expected 200 with a NormalizedQuote/,
  'quote-lines-by-title':
    /quote line 1 names its offering "Margherita Pizza", the display title of off-margherita; the order flow uses ids, not display names/,
  'actions-route-missing': /creating a test action failed: POST \/actions answered HTTP 404 NOT_FOUND/,
  'payment-status-unknown':
    /creating a test action failed: POST \/actions does not match the schema \(\/paymentStatus must be one of PENDING, .* \(found string "UNPAID"\)\)/,
  'action-status-public-id-only':
    /^GET \/actions\/act_[^ ]+ \(by id\) \(action .*\) answered HTTP 404 NOT_FOUND; expected 200/,
  'action-status-route-missing': /GET \/actions\/.* answered HTTP 404 NOT_FOUND; expected 200/,
  'action-status-internal':
    /GET \/actions\/.* does not match NormalizedAction: \/status must be one of .* \(found string "KITCHEN_QUEUE"\)/,
  'action-without-quote-accepted':
    /POST \/actions with a missing quoteId was accepted \(HTTP 200\) and created action .*; expected 400\/422 VALIDATION_ERROR and no action/,
  'action-unknown-quote-accepted':
    /POST \/actions with a quoteId the provider never issued was accepted \(HTTP 200\) and created action .*; expected 4xx ErrorResponse and no action/,
  'payment-paid-on-click':
    /^opening the checkout link of action DK-\d+ \(GET http:\/\/127\.0\.0\.1:\d+\/checkout\/act_[\w-]+, answered HTTP 200; no payment made\) marked the action paid: GET http:\/\/127\.0\.0\.1:\d+\/actions\/act_[\w-]+ then reports paymentStatus PAID \(status CONFIRMED\); a click on the link is not proof of payment$/,
  'quote-binding-options-ignored':
    /POST \/actions with quote .* with option .* instead of .* was answered 200 and created action .*; a quote cannot authorize a different order/,
  // ── Issue 33 probe-table faults ──
  'idempotency-variant-ignored':
    /\[open\] POST \/actions reusing an idempotencyKey with items\[\]\.variantId changed \(with variant .* instead of .*\) was answered 200 and returned the existing action .*; expected 409 IDEMPOTENCY_KEY_REUSED_WITH_DIFFERENT_PAYLOAD/,
  'idempotency-ignored-after-cancel':
    /\[cancelled\] repeating POST \/actions with the same idempotencyKey and body .*created action .*; expected the existing action .*/,
  'idempotency-ignored-after-expiry':
    /\[quote expired\] repeating POST \/actions with the same idempotencyKey and body was answered HTTP 422 QUOTE_EXPIRED.*; expected the identical existing action .*/,
  'action-status-external-id-differs':
    /GET \/actions\/.* reports externalActionId ".*-other"; creation answered ".*": not the same order/,
  'action-status-lines-differ': /GET \/actions\/.* reports lines .*; creation answered .*: not the same order/,
  'cancel-external-id-differs':
    /the cancel result reports externalActionId ".*-other"; creation answered ".*": not the same order/,
  'webhook-public-id-differs':
    /event .* about action .* reports publicId ".*-OTHER"; creation answered ".*": not the same order/,
  'webhook-names-external-id':
    /event .* names action DK-\d+ by its externalActionId "dk-order-\d+"; an event's actionId is the action's id or publicId/,
  'quote-binding-variant-ignored':
    /POST \/actions with quote .* with variant .* instead of .* was answered 200 and created action .*; a quote cannot authorize a different order/,
  'quote-binding-option-quantity-ignored':
    /POST \/actions with quote .* with option .* quantity 2 instead of 1 .* was answered 200 and created action .*; a quote cannot authorize a different order/,
  'quote-binding-added-item-ignored':
    /POST \/actions with quote .* with an added item .* was answered 200 and created action .*; a quote cannot authorize a different order/,
  'quote-binding-dropped-item-ignored':
    /POST \/actions with quote .* without the quoted item .* was answered 200 and created action .*; a quote cannot authorize a different order/,
  'quote-binding-dropped-item-accepted':
    /POST \/actions with quote .* without the quoted item off-\w+ \(quoted beside the selection's one item\) was answered 200 and created action .*; a quote cannot authorize a different order/,
  // ── mutation-bench hole faults ──
  'action-null-item-crashes':
    /POST \/actions with items\[0\] null was answered HTTP 500 INTERNAL_ERROR.*; expected an ErrorResponse \(a 4xx status\)/,
  'quote-unknown-location-accepted':
    /POST \/quote with locationId provcert-unknown-location-\S+, which GET \/locations does not list was accepted \(HTTP 200\); expected a 4xx ErrorResponse/,
  'quote-inactive-location-accepted':
    /POST \/quote with locationId loc-harbour, which GET \/locations lists with isActive false was accepted \(HTTP 200\); expected a 4xx ErrorResponse/,
  'quote-absent-options-crash':
    /POST \/quote with (option \S+ of group \S+ on offering \S+, which has no option groups|variant \S+ on offering \S+, which has no variants) was answered HTTP 500 INTERNAL_ERROR.*; expected an ErrorResponse \(a 4xx status\)/,
  'idempotency-key-order-sensitive':
    /\[open\] repeating POST \/actions with the same idempotencyKey and body with its JSON keys in reverse order was answered HTTP 409 IDEMPOTENCY_KEY_REUSED_WITH_DIFFERENT_PAYLOAD; expected the identical existing action DK-\d+/,
  'shared-public-id':
    /^\d+ distinct test actions \(act_\S+(, act_\S+)+\) share publicId "DK-1001"; a public reference names one order/,
  'refusal-code-empty':
    /POST \/actions with a quoteId the provider never issued was answered HTTP 404 with a body that is not an ErrorResponse \("code" is empty\); expected an ErrorResponse \(a 4xx status\)/,
  'action-without-key-crashes':
    /POST \/actions without idempotencyKey \(the contract does not mark it required\) was answered HTTP 500 INTERNAL_ERROR.*; expected 400 or 422/,
};

/** Checks a fault's check needs beside its dependencies: terminal events come from cancelling an action. */
const ALSO_RUN: Partial<Record<keyof typeof FAULTS, CheckId[]>> = {
  'terminal-event-no-reason': ['cancel'],
  'reason-leaks-card': ['cancel'],
  'reason-leaks-secret': ['cancel'],
  'reason-leaks-identity-document': ['cancel'],
  // Two distinct actions to compare: cancel creates one of its own beside the pending one.
  'shared-public-id': ['cancel'],
};

// quote-explore's faults are proven in explore.int.test.ts, beside quote-math passing on each; lifecycle's in
// lifecycle.int.test.ts, with the shrunk sequence each must show.
const faults = Object.entries(FAULTS).filter(
  ([, f]) => (TX_IDS as string[]).includes(f.check) && f.check !== 'quote-explore' && f.check !== 'lifecycle',
) as [keyof typeof FAULTS, { check: CheckId }][];

describe('transactional checks against the reference provider', () => {
  it('all pass on the conforming provider', async () => {
    // The contract's minimum quote validity is 5 s: a conforming provider's quotes live that long.
    const { report, provider } = await certify({ only: TX_IDS, quoteTtlSeconds: 5 });
    for (const id of TX_IDS) expect(result(report, id).status, explain(result(report, id))).toBe('pass');
    expect(undeclaredCitations(report)).toEqual([]);
    expect(result(report, 'quote-math').quoteMath?.every((r) => r.ok)).toBe(true);
    expect(result(report, 'webhook').webhookTimeline?.length).toBeGreaterThan(0);
    // Cancel cancelled its own action and idempotency its cancelled-state one, neither the shared pending one;
    // lifecycle cancels each order it explored.
    const lifecycleOrders = Number(/(\d+) order\(s\) created/.exec(result(report, 'lifecycle').message)?.[1]);
    // action-validation cancels the order it created without an idempotencyKey (the key is optional).
    expect(provider.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel'))).toHaveLength(
      3 + lifecycleOrders,
    );
  });

  it.each(['BEARER_TOKEN', 'HMAC_SIGNATURE'] as const)(
    'pass with %s (signed bodies, same checks; quote-expiry is covered above)',
    async (authMethod) => {
      const only = TX_IDS.filter((id) => id !== 'quote-expiry');
      const { report } = await certify({ only, authMethod, quoteTtlSeconds: 5 });
      for (const id of only) expect(result(report, id).status, explain(result(report, id))).toBe('pass');
    },
  );

  it('skip with the reason and send no POST when the test environment is not declared safe', async () => {
    const { report, provider } = await certify({ only: TX_IDS, faults: ['unsafe-test-environment'] });
    for (const id of TX_IDS) {
      expect(result(report, id).status).toBe('skip');
      expect(result(report, id).message).toMatch(/safeTestEnvironment/);
    }
    expect(provider.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('skip on a DISCOVERY_READONLY provider, naming the undeclared capability', async () => {
    const { report } = await certify({ only: TX_IDS, capabilities: ['METADATA', 'HEALTH', 'CATALOG'] });
    for (const id of TX_IDS) expect(result(report, id).status, explain(result(report, id))).toBe('skip');
    expect(result(report, 'quote-math').message).toMatch(/QUOTE is not declared/);
    expect(result(report, 'webhook').message).toMatch(/WEBHOOK is not declared/);
  });

  it('covers every transactional fault switch with a message', () => {
    expect(faults.length).toBeGreaterThan(0);
    for (const [name] of faults) expect(NAMES[name], `no expected message for fault ${name}`).toBeDefined();
  });

  it.each(faults)('fault %s fails its check', async (fault, { check }) => {
    const only = [check, ...(checkById(check)?.dependsOn ?? []), ...(ALSO_RUN[fault] ?? [])];
    // Only quote-expiry waits for the quote to expire: a short (non-conforming) validity keeps it fast.
    const quoteTtlSeconds = check === 'quote-expiry' ? 1 : 5;
    // The events of every fault but webhook-not-sent arrive: the wait ends when they do, so only that one waits it out.
    // A held POST /actions is held on the run's (manual) clock: the hold passes in virtual time, measured all the same.
    const { report } = await certify({ faults: [fault], only, quoteTtlSeconds, webhookTimeoutMs: 10_000 });
    const r = result(report, check);
    expect(r.status, explain(r)).toBe('fail');
    const lines = [r.message, ...(r.details ?? [])];
    expect(
      lines.some((l) => NAMES[fault]?.test(l)),
      explain(r),
    ).toBe(true);
    expect(r.evidence.length + (r.webhookTimeline?.length ?? 0), 'a failure shows its evidence').toBeGreaterThan(0);
    // Proven coverage: the failure stands on the requirement the fault breaks.
    const requirement = (FAULTS[fault] as { requirement?: string }).requirement;
    expect(
      r.findings.filter((f) => f.severity === 'fail').map((f) => f.requirement),
      explain(r),
    ).toContain(requirement);
    // ...and every failure stands on a rule the fault breaks: a cited sentence is about its finding.
    expect(strayFailCitations(r, FAULTS[fault]), explain(r)).toEqual([]);
    // Every finding stands on a rule its check declares.
    expect(undeclaredCitations(report)).toEqual([]);
  });
});
