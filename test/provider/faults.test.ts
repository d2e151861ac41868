import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { AuthMethod } from '../../src/contract.js';
import { CHECK_IDS } from '../../src/checks/types.js';
import { FAULTS, type FaultName, type ReferenceProviderOptions, type RunningProvider } from '../../fixtures/provider/index.js';
import {
  WEBHOOK_SECRET, arr, at, certificationQuoteBody, clientFor, createAction, hmac, num, startProvider, startReceiver, str,
  type Call, type ReceivedEvent,
} from './helpers.js';

interface Ctx {
  provider: RunningProvider;
  call: Call;
  /** Events the receiver got, after every send has settled. */
  events(): Promise<ReceivedEvent[]>;
}

interface FaultCase {
  auth?: AuthMethod;
  options?: Partial<ReferenceProviderOptions>;
  /** True when the rule is broken. Must be false for a conforming provider and true with the fault. */
  broken(ctx: Ctx): Promise<boolean>;
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
  return call('POST', '/actions', { body: { providerSlug: 'demo-kitchen', quoteId: str(quote, 'id'), userConfirmed: true } });
}

/** The event about one action (created unless stated), as received. */
async function eventFor(ctx: Ctx, actionId: string): Promise<ReceivedEvent | undefined> {
  return (await ctx.events()).find((e) => e.raw.includes(actionId));
}

const notIso = (value: unknown): boolean => typeof value !== 'string' || Number.isNaN(Date.parse(value)) || new Date(value).toISOString() !== value;

const CASES = {
  'wrong-credential-accepted': { broken: async ({ call }) => (await call('GET', '/catalog', { credential: 'not-the-key' })).status === 200 },
  'missing-credential-accepted': { broken: async ({ call }) => (await call('GET', '/catalog', { credential: null })).status === 200 },
  'catalog-missing-field': {
    broken: async ({ call }) => arr(at((await call('GET', '/catalog')).json, 'offerings')).some((o) => at(o, 'title') === undefined),
  },
  'catalog-wrong-type': {
    broken: async ({ call }) => arr(at((await call('GET', '/catalog')).json, 'offerings')).some((o) => at(o, 'basePrice') === '12.50'),
  },
  'catalog-null': {
    broken: async ({ call }) => arr(at((await call('GET', '/catalog')).json, 'offerings')).some((o) => at(o, 'description') === null),
  },
  'offering-disagrees': {
    broken: async ({ call }) => {
      const fromCatalog = arr(at((await call('GET', '/catalog')).json, 'offerings'))[0];
      const single = (await call('GET', `/offerings/${str(fromCatalog, 'id')}`)).json;
      return at(single, 'id') !== at(fromCatalog, 'id') || at(single, 'basePrice') !== at(fromCatalog, 'basePrice');
    },
  },
  'unknown-offering-found': { broken: async ({ call }) => (await call('GET', '/offerings/no-such-offering')).status === 200 },
  'health-unhealthy-shape': {
    broken: async ({ call }) => {
      const health = (await call('GET', '/health')).json;
      return typeof at(health, 'latencyMs') !== 'number' && notIso(at(health, 'timestamp'));
    },
  },
  'locations-inactive-only': {
    broken: async ({ call }) => arr((await call('GET', '/locations?activeOnly=true')).json).some((l) => at(l, 'isActive') === false),
  },
  'locations-none-active': {
    broken: async ({ call }) => !arr((await call('GET', '/locations')).json).some((l) => at(l, 'isActive') !== false),
  },
  'search-limit-ignored': { broken: async ({ call }) => arr((await call('GET', '/search?q=pizza&limit=1')).json).length > 1 },
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
      const answer = await call('POST', '/quote', { body: { items: [{ offeringId: 'off-truffle', quantity: 1, selectedOptions: [{ groupId: 'grp-truffle-crust', optionId: 'opt-truffle-crust-classic' }] }] } });
      return answer.status === 200 && at(answer.json, 'lines.0.offeringId') !== 'off-truffle';
    },
  },
  'option-limits-unchecked': {
    broken: async ({ call }) => (await quoteStatus(call, [{ offeringId: 'off-margherita', quantity: 1, selectedOptions: [crust, topping('basil'), topping('olives'), topping('mozzarella')] }])) === 200,
  },
  'quantity-unchecked': {
    broken: async ({ call }) => (await quoteStatus(call, [{ offeringId: 'off-margherita', quantity: 0, selectedOptions: [crust] }])) === 200,
  },
  'required-group-unchecked': {
    broken: async ({ call }) => (await quoteStatus(call, [{ offeringId: 'off-margherita', quantity: 1, selectedOptions: [] }])) === 200,
  },
  'expired-quote-accepted': {
    options: { quoteTtlSeconds: 0.2 },
    broken: async ({ call }) => (await expiredQuoteAnswer(call)).status === 200,
  },
  'expired-quote-wrong-code': {
    options: { quoteTtlSeconds: 0.2 },
    broken: async ({ call }) => {
      const answer = await expiredQuoteAnswer(call);
      return answer.status !== 200 && at(answer.json, 'code') !== 'QUOTE_EXPIRED';
    },
  },
  'missing-field-quote-expired': {
    broken: async ({ call }) => at((await call('POST', '/actions', { body: { providerSlug: 'demo-kitchen', userConfirmed: true } })).json, 'code') === 'QUOTE_EXPIRED',
  },
  'unconfirmed-action-accepted': {
    broken: async ({ call }) => (await createAction(call, { userConfirmed: false })).action.status === 200,
  },
  'missing-next-action': { broken: async ({ call }) => at((await createAction(call)).action.json, 'nextAction') === undefined },
  'payment-invented': { broken: async ({ call }) => at((await createAction(call)).action.json, 'paymentStatus') !== 'PENDING' },
  'action-status-mismatch': {
    broken: async ({ call }) => {
      const { action } = await createAction(call);
      return num((await call('GET', `/actions/${str(action.json, 'id')}`)).json, 'total') !== num(action.json, 'total');
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
      const body = { providerSlug: 'demo-kitchen', quoteId: str(quote, 'id'), userConfirmed: true, idempotencyKey: 'race-1' };
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
      return (await call('POST', '/actions', { body: { ...body, customer: { name: 'Other Person', phone: '+15550100009' } } })).status === 200;
    },
  },
  'bad-signature-accepted': {
    auth: 'HMAC_SIGNATURE',
    broken: async ({ call }) => {
      const body = await certificationQuoteBody(call);
      const wrong = await call('POST', '/quote', { body, headers: { 'x-service-signature': hmac('another-secret', JSON.stringify(body)) } });
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
      return signature !== hmac(WEBHOOK_SECRET, event.raw) && signature === hmac(WEBHOOK_SECRET, JSON.stringify(JSON.parse(event.raw), null, 2));
    },
  },
  'webhook-noncanonical-header': {
    broken: async (ctx) => {
      const event = await eventFor(ctx, str((await createAction(ctx.call)).action.json, 'id'));
      return event !== undefined && event.headers['x-service-signature'] === undefined && event.headers['x-signature'] === hmac(WEBHOOK_SECRET, event.raw);
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
      const result = (await call('POST', `/actions/${str(action.json, 'id')}/cancel`, { body: { reason: 'test' } })).json;
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
    broken: async ({ call }) => at((await call('GET', '/provider-info')).json, 'manifest.certification.safeTestEnvironment') !== true,
  },
  'error-not-json': {
    broken: async ({ call }) => {
      const answer = await call('GET', '/no-such-route');
      return answer.status === 404 && answer.json === undefined && (answer.contentType ?? '').startsWith('text/html');
    },
  },
  'error-code-undocumented': {
    broken: async ({ call }) => {
      const answer = await call('GET', '/no-such-route');
      return answer.status === 404 && at(answer.json, 'code') !== 'NOT_FOUND';
    },
  },
} satisfies Record<FaultName, FaultCase>;

async function evaluate(fault: FaultName, faults: FaultName[]): Promise<boolean> {
  const spec: FaultCase = CASES[fault];
  const receiver = await startReceiver();
  const authMethod = spec.auth ?? 'API_KEY';
  const provider = await startProvider({ authMethod, webhookUrl: receiver.url, faults, ...spec.options });
  try {
    const ctx: Ctx = {
      provider,
      call: clientFor(provider, authMethod),
      events: async () => {
        await provider.webhooksSettled();
        return receiver.events;
      },
    };
    return await spec.broken(ctx);
  } finally {
    await provider.close();
    await receiver.close();
  }
}

describe('fault switches', () => {
  it('every fault names a known check id and has a test case', () => {
    for (const [name, fault] of Object.entries(FAULTS)) {
      expect(CHECK_IDS, name).toContain(fault.check);
      expect(fault.description.length, name).toBeGreaterThan(10);
    }
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(FAULTS).sort());
  });

  it.each(Object.keys(CASES) as FaultName[])('%s breaks its rule (and the rule holds without it)', async (fault) => {
    expect(await evaluate(fault, []), 'conforming provider').toBe(false);
    expect(await evaluate(fault, [fault]), `with --fault ${fault}`).toBe(true);
  });

  it('rejects an unknown fault name', async () => {
    await expect(startProvider({ faults: ['no-such-fault' as FaultName] })).rejects.toThrow(/unknown fault "no-such-fault"/);
  });
});
