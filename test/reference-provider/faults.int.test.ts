import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { loadRequirements } from '../../src/contract/requirements.js';
import { CHECK_IDS } from '../../src/model/check-ids.js';
import type { AuthMethod } from '../../src/model/contract-constants.js';
import {
  FAULTS,
  type FaultName,
  type FaultSpec,
  type ReferenceProviderOptions,
} from '../../src/reference-provider/index.js';
import { type ProviderFixture, withProvider } from './fixture.js';
import {
  type Answer,
  arr,
  at,
  authHeaders,
  type Call,
  CREDENTIAL,
  certificationQuoteBody,
  createAction,
  hmac,
  num,
  obj,
  type ReceivedEvent,
  startProvider,
  str,
  WEBHOOK_SECRET,
} from './helpers.js';

interface FaultCase {
  auth?: AuthMethod;
  options?: Partial<ReferenceProviderOptions>;
  /** True when the rule is broken. Must be false for a conforming provider and true with the fault. */
  broken(ctx: ProviderFixture): Promise<boolean>;
}

const sum = (items: unknown[], field: string): number => items.reduce((total: number, i) => total + num(i, field), 0);
const crust = { groupId: 'grp-margherita-crust', optionId: 'opt-margherita-crust-classic' };
const topping = (name: string) => ({ groupId: 'grp-margherita-toppings', optionId: `opt-margherita-top-${name}` });

async function quoteStatus(call: Call, items: unknown[]): Promise<number> {
  return (await call('POST', '/quote', { body: { providerSlug: 'demo-kitchen', items } })).status;
}

async function certificationQuote(call: Call): Promise<unknown> {
  return (await call('POST', '/quote', { body: await certificationQuoteBody(call) })).json;
}

async function expiredQuoteAnswer(call: Call) {
  const quote = await certificationQuote(call);
  await delay(Math.max(0, Date.parse(str(quote, 'expiresAt')) - Date.now()) + 20);
  return call('POST', '/actions', {
    body: { providerSlug: 'demo-kitchen', quoteId: str(quote, 'id'), userConfirmed: true },
  });
}

/** The event about one action (created unless stated), as received. */
async function eventFor(ctx: ProviderFixture, actionId: string): Promise<ReceivedEvent | undefined> {
  return (await ctx.events()).find((e) => e.raw.includes(actionId));
}

/** Creates an action, cancels it, and returns the CANCELLED event about it as received (parsed). */
async function cancellationEvent(ctx: ProviderFixture): Promise<unknown> {
  const id = str((await createAction(ctx.call)).action.json, 'id');
  await ctx.call('POST', `/actions/${id}/cancel`, { body: { reason: 'CUSTOMER_CANCELLED: test' } });
  const events = (await ctx.events()).map((e) => JSON.parse(e.raw) as unknown);
  return events.find((e) => at(e, 'actionId') === id && at(e, 'newStatus') === 'CANCELLED');
}

/** Whether the text holds a Luhn-valid run of 13–19 digits (spaces or dashes allowed between them). */
function holdsCardNumber(text: string): boolean {
  for (const match of text.matchAll(/\d(?:[ -]?\d){12,18}/g)) {
    const digits = match[0].replace(/\D/g, '').split('').map(Number).reverse();
    const sum = digits.reduce((total, d, i) => total + (i % 2 === 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0);
    if (sum % 10 === 0) return true;
  }
  return false;
}

/** An action request for an existing certification quote, with some of its terms changed. */
async function actionWithChangedTerms(
  call: Call,
  quoteExtra: Record<string, unknown>,
  change: Record<string, unknown>,
): Promise<Answer> {
  const quoteBody = { ...(await certificationQuoteBody(call)), ...quoteExtra };
  const quote = (await call('POST', '/quote', { body: quoteBody })).json;
  const body = {
    providerSlug: 'demo-kitchen',
    quoteId: str(quote, 'id'),
    userConfirmed: true,
    items: quoteBody.items,
    ...change,
  };
  return call('POST', '/actions', { body });
}

const notIso = (value: unknown): boolean =>
  typeof value !== 'string' || Number.isNaN(Date.parse(value)) || new Date(value).toISOString() !== value;

const CASES = {
  'wrong-credential-accepted': {
    broken: async ({ call }) => (await call('GET', '/catalog', { credential: 'not-the-key' })).status === 200,
  },
  'missing-credential-accepted': {
    broken: async ({ call }) => (await call('GET', '/catalog', { credential: null })).status === 200,
  },
  'catalog-missing-field': {
    broken: async ({ call }) =>
      arr(at((await call('GET', '/catalog')).json, 'offerings')).some((o) => at(o, 'title') === undefined),
  },
  'catalog-wrong-type': {
    broken: async ({ call }) =>
      arr(at((await call('GET', '/catalog')).json, 'offerings')).some((o) => at(o, 'basePrice') === '12.50'),
  },
  'catalog-null': {
    broken: async ({ call }) =>
      arr(at((await call('GET', '/catalog')).json, 'offerings')).some((o) => at(o, 'description') === null),
  },
  'offering-disagrees': {
    broken: async ({ call }) => {
      const fromCatalog = arr(at((await call('GET', '/catalog')).json, 'offerings'))[0];
      const single = (await call('GET', `/offerings/${str(fromCatalog, 'id')}`)).json;
      return at(single, 'id') !== at(fromCatalog, 'id') || at(single, 'basePrice') !== at(fromCatalog, 'basePrice');
    },
  },
  'unknown-offering-found': {
    broken: async ({ call }) => (await call('GET', '/offerings/no-such-offering')).status === 200,
  },
  'health-unhealthy-shape': {
    broken: async ({ call }) => {
      const health = (await call('GET', '/health')).json;
      return at(health, 'latencyMs') === undefined;
    },
  },
  'catalog-duplicate-ids': {
    broken: async ({ call }) => {
      const ids = arr(at((await call('GET', '/catalog')).json, 'offerings')).map((o) => at(o, 'id'));
      return new Set(ids).size !== ids.length;
    },
  },
  'catalog-foreign-slug': {
    broken: async ({ call }) =>
      at((await call('GET', '/catalog')).json, 'providerSlug') !==
      at((await call('GET', '/provider-info')).json, 'slug'),
  },
  'capability-locations-undeclared': {
    broken: async ({ call }) => {
      const info = (await call('GET', '/provider-info')).json;
      const served = (await call('GET', '/locations')).status === 200;
      return served && at(info, 'type') === 'DELIVERY' && !arr(at(info, 'capabilities')).includes('LOCATIONS');
    },
  },
  'catalog-updated-at-not-iso': {
    broken: async ({ call }) => notIso(at((await call('GET', '/catalog')).json, 'updatedAt')),
  },
  'offering-detail-missing-title': {
    broken: async ({ call }) => {
      const first = arr(at((await call('GET', '/catalog')).json, 'offerings'))[0];
      return at((await call('GET', `/offerings/${str(first, 'id')}`)).json, 'title') === undefined;
    },
  },
  'offering-detail-renamed': {
    broken: async ({ call }) => {
      const first = arr(at((await call('GET', '/catalog')).json, 'offerings'))[0];
      const single = (await call('GET', `/offerings/${str(first, 'id')}`)).json;
      return at(single, 'title') === undefined && at(single, 'name') === at(first, 'title');
    },
  },
  'search-missing-title': {
    broken: async ({ call }) => arr((await call('GET', '/search?q=a')).json).some((o) => at(o, 'title') === undefined),
  },
  'search-renamed-fields': {
    broken: async ({ call }) =>
      arr((await call('GET', '/search?q=a')).json).some(
        (o) => at(o, 'title') === undefined && at(o, 'name') !== undefined,
      ),
  },
  'search-foreign-ids': {
    broken: async ({ call }) => {
      const ids = new Set(arr(at((await call('GET', '/catalog')).json, 'offerings')).map((o) => at(o, 'id')));
      return arr((await call('GET', '/search?q=a')).json).some((o) => !ids.has(at(o, 'id')));
    },
  },
  'quote-expires-at-not-iso': {
    broken: async ({ call }) => notIso(at(await certificationQuote(call), 'expiresAt')),
  },
  'quote-total-not-integer': {
    broken: async ({ call }) => !Number.isInteger(at(await certificationQuote(call), 'total')),
  },
  'action-created-at-not-iso': {
    broken: async ({ call }) => notIso(at((await createAction(call)).action.json, 'createdAt')),
  },
  'action-total-not-integer': {
    broken: async ({ call }) => !Number.isInteger(at((await createAction(call)).action.json, 'total')),
  },
  'action-total-not-quoted': {
    broken: async ({ call }) => {
      const { quote, action } = await createAction(call);
      return at(action.json, 'total') !== at(quote, 'total');
    },
  },
  'action-status-public-id-only': {
    broken: async ({ call }) => {
      const action = (await createAction(call)).action.json;
      const byId = await call('GET', `/actions/${str(action, 'id')}`);
      const byPublicId = await call('GET', `/actions/${str(action, 'publicId')}`);
      return byId.status === 404 && byPublicId.status === 200;
    },
  },
  'action-created-missing-public-id': {
    broken: async ({ call }) => at((await createAction(call)).action.json, 'publicId') === undefined,
  },
  'action-created-internal-status': {
    broken: async ({ call }) => at((await createAction(call)).action.json, 'status') === 'NEW_ORDER',
  },
  'action-updated-at-not-iso': {
    broken: async ({ call }) => {
      const { action } = await createAction(call);
      return notIso(at((await call('GET', `/actions/${str(action.json, 'id')}`)).json, 'updatedAt'));
    },
  },
  'action-status-payment-unknown': {
    broken: async ({ call }) => {
      const { action } = await createAction(call);
      const status = at((await call('GET', `/actions/${str(action.json, 'id')}`)).json, 'paymentStatus');
      return !['PENDING', 'AUTHORIZED', 'PAID', 'FAILED', 'REFUNDED'].includes(String(status));
    },
  },
  'cancel-message-leaks-card': {
    broken: async ({ call }) => {
      const { action } = await createAction(call);
      const result = (await call('POST', `/actions/${str(action.json, 'id')}/cancel`, { body: { reason: 'test' } }))
        .json;
      return /4111 1111 1111 1111/.test(String(at(result, 'message')));
    },
  },
  'unknown-route-wrong-code': {
    broken: async ({ call }) => {
      const answer = await call('GET', '/no-such-route');
      return answer.status === 404 && at(answer.json, 'code') !== 'NOT_FOUND';
    },
  },
  'health-status-not-string': {
    broken: async ({ call }) => typeof at((await call('GET', '/health')).json, 'status') !== 'string',
  },
  'health-latency-negative': {
    broken: async ({ call }) => num((await call('GET', '/health')).json, 'latencyMs') < 0,
  },
  'search-default-limit-ignored': {
    broken: async ({ call }) => arr((await call('GET', '/search?q=a')).json).length > 20,
  },
  'locations-inactive-only': {
    broken: async ({ call }) =>
      arr((await call('GET', '/locations?activeOnly=true')).json).some((l) => at(l, 'isActive') === false),
  },
  'locations-none-active': {
    broken: async ({ call }) => !arr((await call('GET', '/locations')).json).some((l) => at(l, 'isActive') !== false),
  },
  'search-internal-error': {
    broken: async ({ call }) => (await call('GET', '/search?q=pizza')).status === 500,
  },
  'search-limit-ignored': {
    broken: async ({ call }) => arr((await call('GET', '/search?q=pizza&limit=1')).json).length > 1,
  },
  'search-route-missing': {
    broken: async ({ call }) => {
      const declared = arr(at((await call('GET', '/provider-info')).json, 'capabilities')).includes('SEARCH');
      return declared && (await call('GET', '/search?q=pizza')).status === 404;
    },
  },
  'quote-total-wrong': {
    broken: async ({ call }) => {
      const q = await certificationQuote(call);
      return num(q, 'total') !== num(q, 'subtotal') + num(q, 'totalFees') - num(q, 'totalDiscount');
    },
  },
  'quote-subtotal-wrong': {
    broken: async ({ call }) => {
      const q = await certificationQuote(call);
      return num(q, 'subtotal') !== sum(arr(at(q, 'lines')), 'lineTotal');
    },
  },
  'option-not-multiplied': {
    // Line 1: 2 × 40 cm Margherita with olives (120): the options total must be 120 × 1 × 2.
    broken: async ({ call }) => num(await certificationQuote(call), 'lines.0.optionsTotal') !== 240,
  },
  'fees-not-summing': {
    broken: async ({ call }) => {
      const q = await certificationQuote(call);
      return num(q, 'totalFees') !== sum(arr(at(q, 'fees')), 'amount');
    },
  },
  'quote-validity-short': {
    broken: async ({ call }) => {
      const asked = Date.now();
      return Date.parse(str(await certificationQuote(call), 'expiresAt')) - asked < 5_000;
    },
  },
  'unavailable-item-substituted': {
    broken: async ({ call }) => {
      const answer = await call('POST', '/quote', {
        body: {
          items: [
            {
              offeringId: 'off-truffle',
              quantity: 1,
              selectedOptions: [{ groupId: 'grp-truffle-crust', optionId: 'opt-truffle-crust-classic' }],
            },
          ],
        },
      });
      return answer.status === 200 && at(answer.json, 'lines.0.offeringId') !== 'off-truffle';
    },
  },
  'option-limits-unchecked': {
    broken: async ({ call }) =>
      (await quoteStatus(call, [
        {
          offeringId: 'off-margherita',
          quantity: 1,
          selectedOptions: [crust, topping('basil'), topping('olives'), topping('mozzarella')],
        },
      ])) === 200,
  },
  'quantity-unchecked': {
    broken: async ({ call }) =>
      (await quoteStatus(call, [{ offeringId: 'off-margherita', quantity: 0, selectedOptions: [crust] }])) === 200,
  },
  'quantity-fraction-accepted': {
    broken: async ({ call }) =>
      (await quoteStatus(call, [{ offeringId: 'off-margherita', quantity: 1.5, selectedOptions: [crust] }])) === 200,
  },
  'option-quantity-unchecked': {
    broken: async ({ call }) =>
      (await quoteStatus(call, [
        { offeringId: 'off-margherita', quantity: 1, selectedOptions: [{ ...crust, quantity: -1 }] },
      ])) === 200,
  },
  'required-group-unchecked': {
    broken: async ({ call }) =>
      (await quoteStatus(call, [{ offeringId: 'off-margherita', quantity: 1, selectedOptions: [] }])) === 200,
  },
  'expired-quote-accepted': {
    options: { quoteTtlSeconds: 0.2 },
    broken: async ({ call }) => (await expiredQuoteAnswer(call)).status === 200,
  },
  'actions-held-past-expiry': {
    options: { quoteTtlSeconds: 0.5 },
    broken: async ({ call }) => {
      const sentAt = Date.now();
      const { quote, action } = await createAction(call);
      const expiresAt = Date.parse(str(quote, 'expiresAt'));
      // Sent while the quote was valid, answered QUOTE_EXPIRED only once it had expired.
      return sentAt < expiresAt && Date.now() >= expiresAt && at(action.json, 'code') === 'QUOTE_EXPIRED';
    },
  },
  'expired-quote-checked-first': {
    options: { quoteTtlSeconds: 0.2 },
    broken: async ({ call }) => {
      const quote = await certificationQuote(call);
      await delay(Math.max(0, Date.parse(str(quote, 'expiresAt')) - Date.now()) + 20);
      const answer = await call('POST', '/actions', { body: { quoteId: str(quote, 'id'), userConfirmed: true } });
      return at(answer.json, 'code') === 'QUOTE_EXPIRED';
    },
  },
  'expired-quote-wrong-code': {
    options: { quoteTtlSeconds: 0.2 },
    broken: async ({ call }) => {
      const answer = await expiredQuoteAnswer(call);
      return answer.status !== 200 && at(answer.json, 'code') !== 'QUOTE_EXPIRED';
    },
  },
  'missing-field-quote-expired': {
    broken: async ({ call }) =>
      at(
        (await call('POST', '/actions', { body: { providerSlug: 'demo-kitchen', userConfirmed: true } })).json,
        'code',
      ) === 'QUOTE_EXPIRED',
  },
  'unconfirmed-action-accepted': {
    broken: async ({ call }) => (await createAction(call, { userConfirmed: false })).action.status === 200,
  },
  'missing-next-action': {
    broken: async ({ call }) => at((await createAction(call)).action.json, 'nextAction') === undefined,
  },
  'next-action-empty': {
    broken: async ({ call }) => JSON.stringify(at((await createAction(call)).action.json, 'nextAction')) === '{}',
  },
  'payment-invented': {
    broken: async ({ call }) => at((await createAction(call)).action.json, 'paymentStatus') !== 'PENDING',
  },
  'action-status-mismatch': {
    broken: async ({ call }) => {
      const { action } = await createAction(call);
      const got = (await call('GET', `/actions/${str(action.json, 'id')}`)).json;
      return at(got, 'publicId') !== at(action.json, 'publicId');
    },
  },
  'unknown-action-found': {
    broken: async ({ call }) => {
      await createAction(call);
      return (await call('GET', '/actions/act_no-such-action')).status === 200;
    },
  },
  'duplicate-creates-new': {
    broken: async ({ call }) => {
      const { action, body } = await createAction(call, { idempotencyKey: 'dup-1' });
      return at((await call('POST', '/actions', { body })).json, 'id') !== at(action.json, 'id');
    },
  },
  'concurrent-duplicates-race': {
    broken: async ({ call }) => {
      const quote = await certificationQuote(call);
      const body = {
        providerSlug: 'demo-kitchen',
        quoteId: str(quote, 'id'),
        userConfirmed: true,
        idempotencyKey: 'race-1',
      };
      const answers = await Promise.all(Array.from({ length: 10 }, () => call('POST', '/actions', { body })));
      const concurrentIds = new Set(answers.map((a) => at(a.json, 'id')));
      // Only the concurrent case is broken: a later sequential duplicate still finds the key.
      const later = at((await call('POST', '/actions', { body })).json, 'id');
      return concurrentIds.size > 1 && concurrentIds.has(later);
    },
  },
  'changed-payload-accepted': {
    broken: async ({ call }) => {
      const { body } = await createAction(call, { idempotencyKey: 'changed-1' });
      return (
        (
          await call('POST', '/actions', {
            body: { ...body, customer: { name: 'Other Person', phone: '+15550100009' } },
          })
        ).status === 200
      );
    },
  },
  'bad-signature-accepted': {
    auth: 'HMAC_SIGNATURE',
    broken: async ({ call }) => {
      const body = await certificationQuoteBody(call);
      const wrong = await call('POST', '/quote', {
        body,
        headers: { 'x-service-signature': hmac('another-secret', JSON.stringify(body)) },
      });
      const missing = await call('POST', '/quote', { body, credential: null });
      return wrong.status === 200 && missing.status === 200;
    },
  },
  'webhook-wrong-secret': {
    broken: async (ctx) => {
      const event = await eventFor(ctx, str((await createAction(ctx.call)).action.json, 'id'));
      return event !== undefined && event.headers['x-service-signature'] !== hmac(WEBHOOK_SECRET, event.raw);
    },
  },
  'webhook-reserialized': {
    broken: async (ctx) => {
      const event = await eventFor(ctx, str((await createAction(ctx.call)).action.json, 'id'));
      if (!event) return false;
      const signature = event.headers['x-service-signature'];
      return (
        signature !== hmac(WEBHOOK_SECRET, event.raw) &&
        signature === hmac(WEBHOOK_SECRET, JSON.stringify(JSON.parse(event.raw), null, 2))
      );
    },
  },
  'webhook-noncanonical-header': {
    broken: async (ctx) => {
      const event = await eventFor(ctx, str((await createAction(ctx.call)).action.json, 'id'));
      return (
        event !== undefined &&
        event.headers['x-service-signature'] === undefined &&
        event.headers['x-signature'] === hmac(WEBHOOK_SECRET, event.raw)
      );
    },
  },
  'webhook-not-sent': {
    broken: async (ctx) => (await eventFor(ctx, str((await createAction(ctx.call)).action.json, 'id'))) === undefined,
  },
  'webhook-status-mismatch': {
    broken: async (ctx) => {
      const id = str((await createAction(ctx.call)).action.json, 'id');
      const event = await eventFor(ctx, id);
      const status = at((await ctx.call('GET', `/actions/${id}`)).json, 'status');
      return event !== undefined && at(JSON.parse(event.raw), 'newStatus') !== status;
    },
  },
  'cancel-returns-external-id': {
    broken: async ({ call }) => {
      const { action } = await createAction(call);
      const result = (await call('POST', `/actions/${str(action.json, 'id')}/cancel`, { body: { reason: 'test' } }))
        .json;
      return at(result, 'actionId') === at(action.json, 'externalActionId');
    },
  },
  'payment-options-not-array': {
    broken: async ({ call }) => {
      const { action } = await createAction(call);
      return !Array.isArray((await call('GET', `/actions/${str(action.json, 'id')}/payment-options`)).json);
    },
  },
  'unsafe-test-environment': {
    broken: async ({ call }) =>
      at((await call('GET', '/provider-info')).json, 'manifest.certification.safeTestEnvironment') !== true,
  },
  'error-not-json': {
    broken: async ({ call }) => {
      const answer = await call('GET', '/no-such-route');
      return answer.status === 404 && answer.json === undefined && (answer.contentType ?? '').startsWith('text/html');
    },
  },
  'quote-null-item-crashes': {
    broken: async ({ call }) => (await quoteStatus(call, [null])) === 500,
  },
  'unknown-action-options-crashes': {
    broken: async ({ call }) => (await call('GET', '/actions/no-such-action/payment-options')).status === 500,
  },
  'quote-invalid-json-crashes': {
    // No body at all: not a JSON document either.
    broken: async ({ call }) => (await call('POST', '/quote')).status === 500,
  },
  'error-code-undocumented': {
    broken: async ({ call }) => {
      const answer = await call('GET', '/no-such-route');
      return answer.status === 404 && at(answer.json, 'code') !== 'NOT_FOUND';
    },
  },
  'quote-expired-early': {
    broken: async ({ call }) => {
      const { quote, action } = await createAction(call);
      return (
        action.status === 422 &&
        at(action.json, 'code') === 'QUOTE_EXPIRED' &&
        Date.now() < Date.parse(str(quote, 'expiresAt'))
      );
    },
  },
  'quote-binding-items-ignored': {
    broken: async ({ call }) => {
      const items = arr(at(await certificationQuoteBody(call), 'items')) as Record<string, unknown>[];
      const [first, ...rest] = items;
      const changes = [
        [{ ...first, quantity: num(first, 'quantity') + 1 }, ...rest],
        [
          {
            offeringId: 'off-pepperoni',
            quantity: num(first, 'quantity'),
            selectedOptions: [{ groupId: 'grp-pepperoni-crust', optionId: 'opt-pepperoni-crust-classic' }],
          },
          ...rest,
        ],
      ];
      const answers = await Promise.all(changes.map((changed) => actionWithChangedTerms(call, {}, { items: changed })));
      // Broken: an action is created for the changed order (its first line is what was asked, not what was quoted).
      return answers.some(
        (answer, i) =>
          answer.status === 200 &&
          at(answer.json, 'lines.0.offeringId') === at(changes[i], '0.offeringId') &&
          at(answer.json, 'lines.0.quantity') === at(changes[i], '0.quantity'),
      );
    },
  },
  'quote-binding-destination-ignored': {
    broken: async ({ call }) =>
      (
        await actionWithChangedTerms(
          call,
          { destination: { raw: '1 Test Street' } },
          { destination: { raw: '99 Elsewhere Road' } },
        )
      ).status === 200,
  },
  'fees-charge-options': {
    broken: async ({ call }) => {
      const q = await certificationQuote(call);
      const options = sum(arr(at(q, 'lines')), 'optionsTotal');
      return options > 0 && arr(at(q, 'fees')).some((fee) => num(fee, 'amount') === options);
    },
  },
  'catalog-ids-unstable': {
    broken: async ({ call }) => {
      const idsByCode = async () =>
        new Map(
          arr(at((await call('GET', '/catalog')).json, 'offerings')).map((o) => [str(o, 'offeringCode'), str(o, 'id')]),
        );
      const first = await idsByCode();
      const latest = await idsByCode();
      const moved = [...first].every(([code, id]) => latest.get(code) !== id);
      const resolves = await Promise.all(
        [...latest.values()].map(
          async (id) => (await call('GET', `/offerings/${encodeURIComponent(id)}`)).status === 200,
        ),
      );
      return moved && resolves.every(Boolean);
    },
  },
  'webhook-event-type-other': {
    broken: async (ctx) => {
      const event = await eventFor(ctx, str((await createAction(ctx.call)).action.json, 'id'));
      return event !== undefined && at(JSON.parse(event.raw), 'eventType') !== 'action.status_updated';
    },
  },
  'terminal-event-no-reason': {
    broken: async (ctx) => {
      const event = await cancellationEvent(ctx);
      return (
        event !== undefined && (typeof at(event, 'reasonCode') !== 'string' || typeof at(event, 'reason') !== 'string')
      );
    },
  },
  'reason-leaks-card': { broken: async (ctx) => holdsCardNumber(String(at(await cancellationEvent(ctx), 'reason'))) },
  'reason-leaks-identity-document': {
    broken: async (ctx) => /passport X1234567/.test(String(at(await cancellationEvent(ctx), 'reason'))),
  },
  'reason-leaks-secret': {
    broken: async (ctx) => String(at(await cancellationEvent(ctx), 'reason')).includes(CREDENTIAL),
  },
  'unavailable-variant-substituted': {
    broken: async ({ call }) => {
      const answer = await call('POST', '/quote', {
        body: {
          items: [
            { offeringId: 'off-margherita', variantId: 'var-margherita-50', quantity: 1, selectedOptions: [crust] },
          ],
        },
      });
      return answer.status === 200 && at(answer.json, 'lines.0.variantId') !== 'var-margherita-50';
    },
  },
  'provider-info-missing-name': {
    broken: async ({ call }) => {
      const info = (await call('GET', '/provider-info')).json;
      return at(info, 'name') === undefined && at(info, 'slug') === 'demo-kitchen';
    },
  },
  'provider-info-name-empty': {
    broken: async ({ call }) => {
      const info = (await call('GET', '/provider-info')).json;
      return at(info, 'name') === '' && at(info, 'slug') === 'demo-kitchen';
    },
  },
  'offering-title-empty': {
    broken: async ({ call }) =>
      arr(at((await call('GET', '/catalog')).json, 'offerings')).some((o) => at(o, 'title') === ''),
  },
  'location-name-empty': {
    broken: async ({ call }) =>
      arr((await call('GET', '/locations')).json).some((l) => String(at(l, 'name')).trim() === ''),
  },
  'location-missing-address': {
    broken: async ({ call }) => arr((await call('GET', '/locations')).json).some((l) => at(l, 'address') === undefined),
  },
  'catalog-missing-slug': {
    broken: async ({ call }) => {
      const catalog = (await call('GET', '/catalog')).json;
      return at(catalog, 'providerSlug') === undefined && arr(at(catalog, 'offerings')).length > 0;
    },
  },
  'category-count-wrong': {
    broken: async ({ call }) => {
      const catalog = (await call('GET', '/catalog')).json;
      const offerings = arr(at(catalog, 'offerings'));
      return arr(at(catalog, 'categories')).some(
        (c) =>
          !Number.isInteger(at(c, 'offeringsCount')) ||
          num(c, 'offeringsCount') !== offerings.filter((o) => at(o, 'categorySlug') === at(c, 'slug')).length,
      );
    },
  },
  'option-group-limits-inverted': {
    broken: async ({ call }) =>
      arr(at((await call('GET', '/catalog')).json, 'offerings'))
        .flatMap((o) => (Array.isArray(at(o, 'optionGroups')) ? arr(at(o, 'optionGroups')) : []))
        .some((g) => num(g, 'minSelections') > num(g, 'maxSelections')),
  },
  'health-route-missing': {
    broken: async ({ call }) => {
      const [health, info] = await Promise.all([call('GET', '/health'), call('GET', '/provider-info')]);
      return health.status === 404 && info.status === 200;
    },
  },
  'payment-status-failed': {
    broken: async ({ call }) => at((await createAction(call)).action.json, 'paymentStatus') === 'FAILED',
  },
  'action-created-confirmed': {
    broken: async ({ call }) => at((await createAction(call)).action.json, 'status') !== 'AWAITING_PAYMENT',
  },
  'action-missing-created-at': {
    broken: async ({ call }) => {
      const { action } = await createAction(call);
      return at((await call('GET', `/actions/${str(action.json, 'id')}`)).json, 'createdAt') === undefined;
    },
  },
  'payment-option-missing-type': {
    broken: async ({ call }) => {
      const { action } = await createAction(call);
      return arr((await call('GET', `/actions/${str(action.json, 'id')}/payment-options`)).json).some(
        (o) => at(o, 'type') === undefined,
      );
    },
  },
  'cancel-result-no-message': {
    broken: async ({ call }) => {
      const { action } = await createAction(call);
      const result = (await call('POST', `/actions/${str(action.json, 'id')}/cancel`, { body: { reason: 'test' } }))
        .json;
      return at(result, 'success') === true && at(result, 'message') === undefined;
    },
  },
  'cancel-action-id-quote': {
    broken: async ({ call }) => {
      const { action } = await createAction(call);
      const result = (await call('POST', `/actions/${str(action.json, 'id')}/cancel`, { body: { reason: 'test' } }))
        .json;
      return at(result, 'success') === true && at(result, 'actionId') !== at(action.json, 'publicId');
    },
  },
  'cancel-previous-status-wrong': {
    broken: async ({ call }) => {
      const { action } = await createAction(call);
      const result = (await call('POST', `/actions/${str(action.json, 'id')}/cancel`, { body: { reason: 'test' } }))
        .json;
      return at(action.json, 'status') === 'AWAITING_PAYMENT' && at(result, 'previousStatus') !== 'AWAITING_PAYMENT';
    },
  },
  'webhook-event-no-timestamp': {
    broken: async (ctx) => {
      const event = await eventFor(ctx, str((await createAction(ctx.call)).action.json, 'id'));
      return event !== undefined && at(JSON.parse(event.raw), 'timestamp') === undefined;
    },
  },
  'webhook-timestamp-not-iso': {
    broken: async (ctx) => {
      const event = await eventFor(ctx, str((await createAction(ctx.call)).action.json, 'id'));
      return event !== undefined && notIso(at(JSON.parse(event.raw), 'timestamp'));
    },
  },
  'webhook-status-internal': {
    broken: async (ctx) => {
      const event = await eventFor(ctx, str((await createAction(ctx.call)).action.json, 'id'));
      const statuses = ['CREATED', 'AWAITING_PAYMENT', 'CONFIRMED', 'PROCESSING', 'COMPLETED', 'CANCELLED', 'FAILED'];
      return event !== undefined && !statuses.includes(String(at(JSON.parse(event.raw), 'newStatus')));
    },
  },
  'webhook-slug-mismatch': {
    broken: async (ctx) => {
      const event = await eventFor(ctx, str((await createAction(ctx.call)).action.json, 'id'));
      return event !== undefined && !event.path.endsWith(`/${String(at(JSON.parse(event.raw), 'providerSlug'))}`);
    },
  },
  'webhook-content-type-text': {
    broken: async (ctx) => {
      const event = await eventFor(ctx, str((await createAction(ctx.call)).action.json, 'id'));
      return (
        event !== undefined &&
        event.headers['content-type'] === 'text/plain' &&
        event.headers['x-service-signature'] === hmac(WEBHOOK_SECRET, event.raw)
      );
    },
  },
  'quote-missing-expiry': { broken: async ({ call }) => at(await certificationQuote(call), 'expiresAt') === undefined },
  'quote-line-total-wrong': {
    broken: async ({ call }) =>
      arr(at(await certificationQuote(call), 'lines')).some(
        (l) => num(l, 'lineTotal') !== num(l, 'unitPrice') * num(l, 'quantity') + num(l, 'optionsTotal'),
      ),
  },
  'quote-quantity-inflated': {
    broken: async ({ call }) => {
      const body = await certificationQuoteBody(call);
      const quote = (await call('POST', '/quote', { body })).json;
      return num(quote, 'lines.0.quantity') !== num(at(body, 'items.0'), 'quantity');
    },
  },
  'provider-info-route-missing': {
    broken: async ({ call }) => {
      const [info, health] = await Promise.all([call('GET', '/provider-info'), call('GET', '/health')]);
      return info.status === 404 && health.status === 200;
    },
  },
  'capability-product-category': {
    broken: async ({ call }) =>
      arr(at((await call('GET', '/provider-info')).json, 'capabilities')).includes('FOOD_DELIVERY'),
  },
  'manifest-input-mode-unknown': {
    broken: async ({ call }) => at((await call('GET', '/provider-info')).json, 'manifest.inputMode') === 'CATALOG',
  },
  'provider-status-unknown': {
    broken: async ({ call }) => at((await call('GET', '/provider-info')).json, 'status') === 'LIVE',
  },
  'certification-input-unknown-offering': {
    broken: async ({ call }) => {
      const [info, catalog] = await Promise.all([call('GET', '/provider-info'), call('GET', '/catalog')]);
      const ids = new Set(arr(at(catalog.json, 'offerings')).map((o) => at(o, 'id')));
      return arr(at(info.json, 'manifest.certificationInput.items')).some((i) => !ids.has(at(i, 'offeringId')));
    },
  },
  'certification-input-unknown-location': {
    broken: async ({ call }) => {
      const [info, locations] = await Promise.all([call('GET', '/provider-info'), call('GET', '/locations')]);
      const ids = new Set(arr(locations.json).map((l) => at(l, 'id')));
      const locationId = at(info.json, 'manifest.certificationInput.locationId');
      return typeof locationId === 'string' && !ids.has(locationId);
    },
  },
  'certification-input-customer-missing-required': {
    broken: async ({ call }) => {
      const manifest = at((await call('GET', '/provider-info')).json, 'manifest');
      return (
        at(manifest, 'customerRequirements.phone') === 'REQUIRED' &&
        at(manifest, 'certificationInput.customer') !== undefined &&
        at(manifest, 'certificationInput.customer.phone') === undefined
      );
    },
  },
  'capability-health-undeclared': {
    broken: async ({ call }) => {
      const [info, health] = await Promise.all([call('GET', '/provider-info'), call('GET', '/health')]);
      return !arr(at(info.json, 'capabilities')).includes('HEALTH') && health.status === 200;
    },
  },
  'capability-webhook-undeclared': {
    broken: async (ctx) => {
      const declared = arr(at((await ctx.call('GET', '/provider-info')).json, 'capabilities'));
      const id = str((await createAction(ctx.call)).action.json, 'id');
      return declared.includes('QUOTE') && !declared.includes('WEBHOOK') && (await eventFor(ctx, id)) !== undefined;
    },
  },
  'capability-cancel-undeclared': {
    broken: async ({ call }) => {
      const declared = arr(at((await call('GET', '/provider-info')).json, 'capabilities'));
      const id = str((await createAction(call)).action.json, 'id');
      const cancelled = await call('POST', `/actions/${id}/cancel`, { body: { reason: 'test' } });
      return !declared.includes('ACTION_CANCEL') && cancelled.status === 200;
    },
  },
  'catalog-route-missing': {
    broken: async ({ call }) => {
      const [catalog, offering] = await Promise.all([
        call('GET', '/catalog'),
        call('GET', '/offerings/off-margherita'),
      ]);
      return catalog.status === 404 && offering.status === 200;
    },
  },
  'catalog-renamed-fields': {
    broken: async ({ call }) =>
      arr(at((await call('GET', '/catalog')).json, 'offerings')).some(
        (o) => at(o, 'title') === undefined && typeof at(o, 'name') === 'string',
      ),
  },
  'offering-by-code-missing': {
    broken: async ({ call }) => {
      const [byId, byCode] = await Promise.all([
        call('GET', '/offerings/off-margherita'),
        call('GET', '/offerings/PZ-MARG'),
      ]);
      return byId.status === 200 && byCode.status === 404;
    },
  },
  'health-timestamp-not-iso': {
    broken: async ({ call }) => notIso(at((await call('GET', '/health')).json, 'timestamp')),
  },
  'hmac-over-reserialized-body': {
    auth: 'HMAC_SIGNATURE',
    broken: async ({ call, provider }) => {
      const formatted = JSON.stringify(await certificationQuoteBody(call), null, 2);
      const headers = { 'content-type': 'application/json', ...authHeaders('HMAC_SIGNATURE', CREDENTIAL, formatted) };
      const answer = await fetch(`${provider.url}/quote`, { method: 'POST', headers, body: formatted });
      await answer.arrayBuffer();
      return answer.status === 401;
    },
  },
  'quote-route-missing': {
    broken: async ({ call }) =>
      (await call('POST', '/quote', { body: await certificationQuoteBody(call) })).status === 404,
  },
  'quote-lines-by-title': {
    broken: async ({ call }) =>
      arr(at(await certificationQuote(call), 'lines')).some((l) => at(l, 'offeringId') === at(l, 'offeringTitle')),
  },
  'actions-route-missing': { broken: async ({ call }) => (await createAction(call)).action.status === 404 },
  'payment-status-unknown': {
    broken: async ({ call }) => at((await createAction(call)).action.json, 'paymentStatus') === 'UNPAID',
  },
  'action-status-route-missing': {
    broken: async ({ call }) => {
      const { action } = await createAction(call);
      return action.status === 200 && (await call('GET', `/actions/${str(action.json, 'id')}`)).status === 404;
    },
  },
  'action-status-internal': {
    broken: async ({ call }) => {
      const { action } = await createAction(call);
      return at((await call('GET', `/actions/${str(action.json, 'id')}`)).json, 'status') === 'KITCHEN_QUEUE';
    },
  },
  'action-without-quote-accepted': {
    broken: async ({ call }) => {
      const { items } = await certificationQuoteBody(call);
      return (
        (await call('POST', '/actions', { body: { providerSlug: 'demo-kitchen', userConfirmed: true, items } }))
          .status === 200
      );
    },
  },
  'action-unknown-quote-accepted': {
    broken: async ({ call }) => {
      const { items } = await certificationQuoteBody(call);
      return (
        (
          await call('POST', '/actions', {
            body: { providerSlug: 'demo-kitchen', quoteId: 'q_never_issued', userConfirmed: true, items },
          })
        ).status === 200
      );
    },
  },
  'quote-binding-options-ignored': {
    broken: async ({ call }) => {
      const items = arr(at(await certificationQuoteBody(call), 'items')) as Record<string, unknown>[];
      const [first, ...rest] = items;
      const otherCrust = [
        { groupId: 'grp-margherita-crust', optionId: 'opt-margherita-crust-classic', quantity: 1 },
        { groupId: 'grp-margherita-toppings', optionId: 'opt-margherita-top-olives', quantity: 1 },
      ];
      const answer = await actionWithChangedTerms(
        call,
        {},
        { items: [{ ...first, selectedOptions: otherCrust }, ...rest] },
      );
      if (answer.status !== 200) return false;
      // Broken only when the action is the changed order (its options), not the quoted one.
      const options = arr(at(arr(at(answer.json, 'lines'))[0], 'selectedOptions')).map((o) => at(o, 'optionId'));
      return options.includes('opt-margherita-top-olives');
    },
  },
  // ── quote-explore faults: each breaks an order that manifest.certificationInput does not make ──
  'explore-variant-line-total': {
    broken: async ({ call }) => mathBroken(await exploreQuote(call, [pizza('var-margherita-30')])),
  },
  'explore-option-quantity-ignored': {
    broken: async ({ call }) =>
      mathBroken(await exploreQuote(call, [pizza('var-margherita-40', toppingOf('olives', 2))])),
  },
  'explore-max-selections-refused': {
    broken: async ({ call }) =>
      (await exploreQuote(call, [pizza('var-margherita-40', toppingOf('basil'), toppingOf('olives'))])).status === 400,
  },
  'explore-min-selections-refused': {
    broken: async ({ call }) => (await exploreQuote(call, [pizza('var-margherita-40')])).status === 400,
  },
  'explore-group-second-option-free': {
    broken: async ({ call }) =>
      mathBroken(await exploreQuote(call, [pizza('var-margherita-40', toppingOf('basil'), toppingOf('olives'))])),
  },
  'explore-cart-lines-dropped': {
    broken: async ({ call }) =>
      arr(at((await exploreQuote(call, [water(1), { offeringId: 'off-greek', quantity: 1 }, water(2)])).json, 'lines'))
        .length !== 3,
  },
  'explore-same-offering-merged': {
    broken: async ({ call }) => arr(at((await exploreQuote(call, [water(1), water(2)])).json, 'lines')).length !== 2,
  },
  'explore-large-quantity-capped': {
    broken: async ({ call }) => mathBroken(await exploreQuote(call, [water(10)])),
  },
  'explore-large-order-fee-unsummed': {
    broken: async ({ call }) => mathBroken(await exploreQuote(call, [water(41)])),
  },
  'explore-second-location-total': {
    broken: async ({ call }) => {
      const listed = arr((await call('GET', '/locations')).json).some((l) => at(l, 'id') === 'loc-airport');
      const answer = await exploreQuote(call, [water(1)], 'loc-airport');
      return listed && answer.status === 200 && mathBroken(answer);
    },
  },
  'explore-stale-option-price': {
    broken: async ({ call }) =>
      mathBroken(await exploreQuote(call, [pizza('var-margherita-40', toppingOf('mozzarella'))])),
  },
  'explore-large-cart-error': {
    broken: async ({ call }) => (await exploreQuote(call, [1, 1, 1, 1, 1].map(water))).status === 500,
  },
  'explore-above-max-accepted': {
    broken: async ({ call }) =>
      (
        await exploreQuote(call, [
          {
            ...pizza('var-margherita-40'),
            selectedOptions: [crust, { groupId: 'grp-margherita-crust', optionId: 'opt-margherita-crust-thin' }],
          },
        ])
      ).status === 200,
  },
  'explore-required-default-filled': {
    broken: async ({ call }) =>
      (await exploreQuote(call, [{ ...pizza('var-margherita-40'), selectedOptions: [] }])).status === 200,
  },
  'explore-unavailable-option-accepted': {
    broken: async ({ call }) =>
      (await exploreQuote(call, [pizza('var-margherita-40', toppingOf('jalapeno'))])).status === 200,
  },
  'explore-foreign-option-accepted': {
    broken: async ({ call }) =>
      (
        await exploreQuote(call, [
          { ...water(1), selectedOptions: [{ groupId: 'grp-caesar-extras', optionId: 'opt-caesar-chicken' }] },
        ])
      ).status === 200,
  },
  'explore-negative-quantity-accepted': {
    broken: async ({ call }) => (await exploreQuote(call, [water(-1)])).status === 200,
  },
  'explore-unknown-variant-ignored': {
    broken: async ({ call }) =>
      (await exploreQuote(call, [{ offeringId: 'off-lemonade', variantId: 'var-lemonade-2l', quantity: 1 }])).status ===
      200,
  },
  'explore-subtotal-third-line-missing': {
    broken: async ({ call }) =>
      mathBroken(await exploreQuote(call, [water(1), { offeringId: 'off-greek', quantity: 1 }, water(2)])),
  },
  'explore-toppings-fee': {
    broken: async ({ call }) => {
      const quote = (await exploreQuote(call, [pizza('var-margherita-40', toppingOf('basil'), toppingOf('olives'))]))
        .json;
      return arr(at(quote, 'fees')).some(
        (f) => at(f, 'name') === 'Extra toppings' && num(f, 'amount') === num(quote, 'lines.0.optionsTotal'),
      );
    },
  },
  'explore-large-cart-short-validity': {
    broken: async ({ call }) => {
      const asked = Date.now();
      const quote = (await exploreQuote(call, [1, 1, 1, 1].map(water))).json;
      return Date.parse(str(quote, 'expiresAt')) - asked < 5_000;
    },
  },
  'explore-repeat-offering-no-id': {
    broken: async ({ call }) => at((await exploreQuote(call, [water(1), water(2)])).json, 'id') === undefined,
  },
  'explore-unknown-option-code': {
    broken: async ({ call }) =>
      at(
        (
          await exploreQuote(call, [
            {
              ...pizza('var-margherita-40'),
              selectedOptions: [crust, { groupId: 'grp-margherita-toppings', optionId: 'opt-none' }],
            },
          ])
        ).json,
        'code',
      ) === 'OPTION_NOT_FOUND',
  },
  // ── end of the quote-explore faults ──
  'payment-paid-on-click': {
    broken: async (ctx) => {
      const { call } = ctx;
      const action = (await createAction(call)).action.json;
      // The customer's browser: GET of the checkout link, no credential.
      const page = await fetch(str(action, 'nextAction.url'));
      await page.text();
      const after = (await call('GET', `/actions/${str(action, 'id')}`)).json;
      const events = (await ctx.events()).filter((e) => e.raw.includes(str(action, 'id')));
      return (
        page.status === 200 &&
        at(after, 'paymentStatus') === 'PAID' &&
        events.some((e) => at(JSON.parse(e.raw) as unknown, 'newStatus') === 'CONFIRMED')
      );
    },
  },
  'error-echoes-credential': {
    broken: async ({ call }) => {
      const wrong = 'probe-Wrong-credential-1234';
      const answer = await call('GET', '/catalog', { credential: wrong });
      return answer.status === 401 && at(answer.json, 'code') === 'UNAUTHORIZED' && answer.text.includes(wrong);
    },
  },
  // ── Issue 33 probe-table faults (idempotency, order identity, quote binding) ──
  'idempotency-variant-ignored': {
    broken: async ({ call }) => {
      const items = arr(at(await certificationQuoteBody(call), 'items')) as Record<string, unknown>[];
      const { body } = await createAction(call, { idempotencyKey: 'variant-1', items });
      const [first, ...rest] = items;
      const otherVariant = [{ ...first, variantId: 'var-margherita-30' }, ...rest];
      return (await call('POST', '/actions', { body: { ...body, items: otherVariant } })).status === 200;
    },
  },
  'idempotency-ignored-after-cancel': {
    broken: async ({ call }) => {
      const { action, body } = await createAction(call, { idempotencyKey: 'cancelled-1' });
      const id = str(action.json, 'id');
      await call('POST', `/actions/${id}/cancel`, { body: { reason: 'CUSTOMER_CANCELLED: test' } });
      const again = await call('POST', '/actions', { body });
      return again.status !== 200 || str(again.json, 'id') !== id;
    },
  },
  'idempotency-ignored-after-expiry': {
    options: { quoteTtlSeconds: 0.2 },
    broken: async ({ call }) => {
      const { quote, action, body } = await createAction(call, { idempotencyKey: 'expired-1' });
      await delay(Math.max(0, Date.parse(str(quote, 'expiresAt')) - Date.now()) + 20);
      const again = await call('POST', '/actions', { body });
      return again.status !== 200 || str(again.json, 'id') !== str(action.json, 'id');
    },
  },
  'action-status-external-id-differs': {
    broken: async ({ call }) => {
      const created = (await createAction(call)).action.json;
      const read = (await call('GET', `/actions/${str(created, 'id')}`)).json;
      return at(read, 'externalActionId') !== at(created, 'externalActionId');
    },
  },
  'action-status-lines-differ': {
    broken: async ({ call }) => {
      const created = (await createAction(call)).action.json;
      const read = (await call('GET', `/actions/${str(created, 'id')}`)).json;
      return JSON.stringify(at(read, 'lines')) !== JSON.stringify(at(created, 'lines'));
    },
  },
  'cancel-external-id-differs': {
    broken: async ({ call }) => {
      const created = (await createAction(call)).action.json;
      const result = (
        await call('POST', `/actions/${str(created, 'id')}/cancel`, { body: { reason: 'CUSTOMER_CANCELLED: test' } })
      ).json;
      return at(result, 'externalActionId') !== at(created, 'externalActionId');
    },
  },
  'webhook-public-id-differs': {
    broken: async (ctx) => {
      const created = (await createAction(ctx.call)).action.json;
      const event = await eventFor(ctx, str(created, 'id'));
      const publicId = event ? at(JSON.parse(event.raw) as unknown, 'publicId') : undefined;
      return publicId !== undefined && publicId !== at(created, 'publicId');
    },
  },
  'webhook-names-external-id': {
    broken: async (ctx) => {
      const created = (await createAction(ctx.call)).action.json;
      const event = await eventFor(ctx, str(created, 'externalActionId'));
      return (
        event !== undefined && at(JSON.parse(event.raw) as unknown, 'actionId') === at(created, 'externalActionId')
      );
    },
  },
  'quote-binding-variant-ignored': {
    broken: async ({ call }) => {
      const items = arr(at(await certificationQuoteBody(call), 'items')) as Record<string, unknown>[];
      const [first, ...rest] = items;
      const changed = [{ ...first, variantId: 'var-margherita-30' }, ...rest];
      return (await actionWithChangedTerms(call, {}, { items: changed })).status === 200;
    },
  },
  'quote-binding-option-quantity-ignored': {
    broken: async ({ call }) => {
      const items = arr(at(await certificationQuoteBody(call), 'items')) as Record<string, unknown>[];
      const [first, ...rest] = items;
      const options = arr(at(first, 'selectedOptions')).map((o, i) => (i === 1 ? { ...obj(o), quantity: 2 } : o));
      const changed = [{ ...first, selectedOptions: options }, ...rest];
      return (await actionWithChangedTerms(call, {}, { items: changed })).status === 200;
    },
  },
  'quote-binding-added-item-ignored': {
    broken: async ({ call }) => {
      const items = arr(at(await certificationQuoteBody(call), 'items'));
      const changed = [...items, { offeringId: 'off-water', quantity: 1 }];
      return (await actionWithChangedTerms(call, {}, { items: changed })).status === 200;
    },
  },
  'quote-binding-dropped-item-ignored': {
    broken: async ({ call }) => {
      const items = arr(at(await certificationQuoteBody(call), 'items'));
      return (await actionWithChangedTerms(call, {}, { items: items.slice(0, -1) })).status === 200;
    },
  },
  'quote-binding-dropped-item-accepted': {
    // A one-item certification input, and a quote of it plus one more item that an action may leave out.
    broken: async ({ call }) => {
      const items = arr(at(await certificationQuoteBody(call), 'items'));
      const quoted = [...items, { offeringId: 'off-water', quantity: 1 }];
      const dropped = await actionWithChangedTerms(call, { items: quoted }, { items });
      return items.length === 1 && dropped.status === 200;
    },
  },
  // ── end of the issue 33 probe-table faults ──
  // ── probe tables, authentication and pinned fields (issue 33) ──
  'auth-skipped-offering': {
    broken: async ({ call }) => {
      const id = str(arr(at((await call('GET', '/catalog')).json, 'offerings'))[0], 'id');
      return (await call('GET', `/offerings/${id}`, { credential: null })).status === 200;
    },
  },
  'auth-skipped-cancel': {
    broken: async ({ call }) => {
      const id = str((await createAction(call)).action.json, 'id');
      const answer = await call('POST', `/actions/${id}/cancel`, { credential: null, body: { reason: 'OTHER: t' } });
      return answer.status === 200;
    },
  },
  'credential-prefix-accepted': {
    broken: async ({ call }) => (await call('GET', '/catalog', { credential: CREDENTIAL.slice(0, -1) })).status === 200,
  },
  'credential-suffix-accepted': {
    broken: async ({ call }) => (await call('GET', '/catalog', { credential: `${CREDENTIAL}0` })).status === 200,
  },
  'credential-case-insensitive': {
    broken: async ({ call }) =>
      (await call('GET', '/catalog', { credential: CREDENTIAL.toUpperCase() })).status === 200,
  },
  'credential-trimmed': {
    broken: async ({ call }) =>
      (await call('GET', '/catalog', { credential: `\u00a0${CREDENTIAL}\u00a0` })).status === 200,
  },
  'webhook-secret-accepted': {
    broken: async ({ call }) => (await call('GET', '/catalog', { credential: WEBHOOK_SECRET })).status === 200,
  },
  'credential-any-header': {
    broken: async ({ call }) =>
      (await call('GET', '/catalog', { credential: null, headers: { authorization: `Bearer ${CREDENTIAL}` } }))
        .status === 200,
  },
  'bearer-scheme-unchecked': {
    auth: 'BEARER_TOKEN',
    broken: async ({ call }) => {
      const answers = await Promise.all(
        [`Basic ${CREDENTIAL}`, `Token Bearer ${CREDENTIAL}`].map((authorization) =>
          call('GET', '/catalog', { credential: null, headers: { authorization } }),
        ),
      );
      return answers.every((answer) => answer.status === 200);
    },
  },
  'signature-truncated-accepted': {
    auth: 'HMAC_SIGNATURE',
    broken: async ({ call }) => {
      const truncated = hmac(CREDENTIAL, '').slice(0, -1);
      const answer = await call('GET', '/catalog', { credential: null, headers: { 'x-service-signature': truncated } });
      return answer.status === 200;
    },
  },
  'user-confirmed-truthy': {
    broken: async ({ call }) => {
      const answers = await Promise.all(['true', 1].map((value) => createAction(call, { userConfirmed: value })));
      return answers.every(({ action }) => action.status === 200);
    },
  },
  // ── end of the probe-table faults ──
  // ── lifecycle faults: each breaks its rule only after a cancel or after the quote expired ──
  'lifecycle-repeat-after-cancel-creates': {
    broken: async ({ call }) => {
      const { action, body } = await cancelledKeyedAction(call);
      return str((await call('POST', '/actions', { body })).json, 'id') !== str(action, 'id');
    },
  },
  'lifecycle-repeat-after-expiry-refused': {
    options: { quoteTtlSeconds: 0.2 },
    broken: async ({ call }) => {
      const { quote, body } = await createAction(call, { idempotencyKey: 'lifecycle-expiry' });
      await delay(Math.max(0, Date.parse(str(quote, 'expiresAt')) - Date.now()) + 20);
      return (await call('POST', '/actions', { body })).status !== 200;
    },
  },
  'lifecycle-changed-after-cancel-accepted': {
    broken: async ({ call }) => {
      const { body } = await cancelledKeyedAction(call);
      const changed = { ...body, customer: { name: 'Someone Else', phone: '+15550100000' } };
      return (await call('POST', '/actions', { body: changed })).status !== 409;
    },
  },
  'lifecycle-used-quote-expiry-unchecked': {
    options: { quoteTtlSeconds: 0.2 },
    broken: async ({ call }) => {
      const { quote, body } = await createAction(call, { idempotencyKey: 'lifecycle-used-quote' });
      await delay(Math.max(0, Date.parse(str(quote, 'expiresAt')) - Date.now()) + 20);
      const again = await call('POST', '/actions', { body: { ...body, idempotencyKey: 'lifecycle-used-quote-2' } });
      return again.status === 200;
    },
  },
  'lifecycle-cancelled-total-changed': {
    broken: async ({ call }) => {
      const { action } = await cancelledKeyedAction(call);
      return num((await call('GET', `/actions/${str(action, 'id')}`)).json, 'total') !== num(action, 'total');
    },
  },
  'lifecycle-repeat-reopens-cancelled': {
    broken: async ({ call }) => {
      const { action, body } = await cancelledKeyedAction(call);
      await call('POST', '/actions', { body });
      return at((await call('GET', `/actions/${str(action, 'id')}`)).json, 'status') !== 'CANCELLED';
    },
  },
  'lifecycle-payment-options-cancelled-object': {
    broken: async ({ call }) => {
      const { action } = await cancelledKeyedAction(call);
      return !Array.isArray((await call('GET', `/actions/${str(action, 'id')}/payment-options`)).json);
    },
  },
  // ── end of the lifecycle faults ──
  // ── mutation-bench hole faults ──
  'action-null-item-crashes': {
    broken: async ({ call }) => (await createAction(call, { items: [null] })).action.status === 500,
  },
  'quote-unknown-location-accepted': {
    broken: async ({ call }) => {
      const body = { ...(await certificationQuoteBody(call)), locationId: 'loc-nowhere' };
      return (await call('POST', '/quote', { body })).status === 200;
    },
  },
  'quote-inactive-location-accepted': {
    broken: async ({ call }) => {
      const body = { ...(await certificationQuoteBody(call)), locationId: 'loc-harbour' };
      return (await call('POST', '/quote', { body })).status === 200;
    },
  },
  'quote-absent-options-crash': {
    broken: async ({ call }) => {
      const statuses = await Promise.all([
        quoteStatus(call, [{ offeringId: 'off-water', quantity: 1, selectedOptions: [crust] }]),
        quoteStatus(call, [{ offeringId: 'off-water', quantity: 1, variantId: 'var-lemonade-033' }]),
      ]);
      return statuses.every((status) => status === 500);
    },
  },
  'idempotency-key-order-sensitive': {
    broken: async ({ call }) => {
      const { action, body } = await createAction(call, { idempotencyKey: 'key-order' });
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      const again = await call('POST', '/actions', { body: reordered });
      return again.status !== 200 || str(again.json, 'id') !== str(action.json, 'id');
    },
  },
  'shared-public-id': {
    broken: async ({ call }) => {
      const [first, second] = await Promise.all([createAction(call), createAction(call)]);
      return str(first.action.json, 'publicId') === str(second.action.json, 'publicId');
    },
  },
  'other-method-served': {
    broken: async ({ call }) => (await call('POST', '/catalog', { body: {} })).status === 200,
  },
  'action-without-key-crashes': {
    // createAction sends no idempotencyKey unless asked to.
    broken: async ({ call }) => (await createAction(call)).action.status === 500,
  },
  'refusal-code-empty': {
    broken: async ({ call }) => {
      const { items } = await certificationQuoteBody(call);
      const body = { providerSlug: 'demo-kitchen', quoteId: 'q_never_issued', userConfirmed: true, items };
      const answer = await call('POST', '/actions', { body });
      return answer.status === 404 && at(answer.json, 'code') === '';
    },
  },
  'query-refusal-code-empty': {
    broken: async ({ call }) => {
      const answers = await Promise.all(
        [
          '/locations?activeOnly=maybe',
          '/catalog?locationId=nowhere',
          '/search?q=pizza&limit=many',
          '/offerings/x-%E0%A4%A',
        ].map((path) => call('GET', path)),
      );
      return answers.every((answer) => answer.status === 400 && at(answer.json, 'code') === '');
    },
  },
  // ── end of the mutation-bench hole faults ──
} satisfies Record<FaultName, FaultCase>;

async function evaluate(fault: FaultName, faults: FaultName[]): Promise<boolean> {
  const spec: FaultCase = CASES[fault];
  return withProvider({ receiver: true, authMethod: spec.auth ?? 'API_KEY', faults, ...spec.options }, (fixture) =>
    spec.broken(fixture),
  );
}

describe('fault switches', () => {
  it('every fault names a known check id, requirements that check verifies, and has a test case', async () => {
    const catalog = await loadRequirements();
    for (const [name, fault] of Object.entries(FAULTS) as [FaultName, FaultSpec][]) {
      expect(CHECK_IDS, name).toContain(fault.check);
      expect(fault.description.length, name).toBeGreaterThan(10);
      // The rule it breaks, and the rules it breaks as a consequence (its check's failures may cite those).
      for (const id of [fault.requirement, ...(fault.alsoBreaks ?? [])]) {
        const requirement = catalog.requirementById(id);
        expect(requirement, `${name}: requirement ${id} in spec/requirements.yaml`).toBeDefined();
        expect(
          requirement?.verification === 'checked' ? requirement.checks : [],
          `${name}: ${id} is verified by ${fault.check}`,
        ).toContain(fault.check);
      }
      expect(fault.alsoBreaks ?? [], name).not.toContain(fault.requirement);
    }
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(FAULTS).sort());
  });

  it.each(Object.keys(CASES) as FaultName[])('%s breaks its rule (and the rule holds without it)', async (fault) => {
    expect(await evaluate(fault, []), 'conforming provider').toBe(false);
    expect(await evaluate(fault, [fault]), `with --fault ${fault}`).toBe(true);
  });

  it('rejects an unknown fault name', async () => {
    await expect(startProvider({ faults: ['no-such-fault' as FaultName] })).rejects.toThrow(
      /unknown fault "no-such-fault"/,
    );
  });
});

// ── quote-explore fault helpers (hoisted) ──

/** Items of the orders the quote-explore faults break (none is the certification input's). */
function pizza(variantId: string, ...toppings: Record<string, unknown>[]): Record<string, unknown> {
  return { offeringId: 'off-margherita', variantId, quantity: 1, selectedOptions: [crust, ...toppings] };
}
function toppingOf(name: string, quantity?: number): Record<string, unknown> {
  return { ...topping(name), ...(quantity ? { quantity } : {}) };
}
function water(quantity: number): Record<string, unknown> {
  return { offeringId: 'off-water', quantity };
}
function exploreQuote(call: Call, items: unknown[], locationId?: string): Promise<Answer> {
  return call('POST', '/quote', {
    body: { providerSlug: 'demo-kitchen', ...(locationId ? { locationId } : {}), items },
  });
}
/** Whether a quote's own numbers break DECISIONS.md's quote math (or it is not a quote at all). */
function mathBroken(answer: Answer): boolean {
  if (answer.status !== 200) return true;
  const quote = answer.json;
  const lines = arr(at(quote, 'lines'));
  const lineWrong = lines.some((l) => {
    const q = num(l, 'quantity');
    const options = arr(at(l, 'selectedOptions')).reduce(
      (total: number, o) => total + num(o, 'priceDelta') * num(o, 'quantity') * q,
      0,
    );
    return num(l, 'optionsTotal') !== options || num(l, 'lineTotal') !== num(l, 'unitPrice') * q + options;
  });
  const fees = sum(arr(at(quote, 'fees')), 'amount');
  return (
    lineWrong ||
    num(quote, 'subtotal') !== sum(lines, 'lineTotal') ||
    num(quote, 'totalFees') !== fees ||
    num(quote, 'total') !== num(quote, 'subtotal') + num(quote, 'totalFees') - num(quote, 'totalDiscount')
  );
}

// ── lifecycle fault helpers (hoisted) ──

/** An action created under an idempotency key, then cancelled: the state the lifecycle faults break. */
async function cancelledKeyedAction(call: Call): Promise<{ action: unknown; body: Record<string, unknown> }> {
  const { action, body } = await createAction(call, { idempotencyKey: 'lifecycle-cancelled' });
  await call('POST', `/actions/${str(action.json, 'id')}/cancel`, { body: { reason: 'CUSTOMER_CANCELLED: test' } });
  return { action: action.json, body };
}
