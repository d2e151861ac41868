import { beforeAll, describe, expect, it } from 'vitest';
import type { ApplicabilityContext, CheckDefinition } from '../../src/checks/types.js';
import type { ProviderInfoView } from '../../src/checks/views.js';
import type { AuthMethod, Profile } from '../../src/contract.js';
import { inferProfile, resolveFulfillment, skipReasonFor } from '../../src/runner/applicability.js';
import type { Contract } from '../../src/spec/contract.js';
import { loadContract } from '../../src/spec/load.js';
import { testConfig } from '../support/certify.js';

describe('inferProfile', () => {
  const cases: { name: string; explicit?: Profile; declared: string[]; want: Profile }[] = [
    { name: 'nothing declared', declared: [], want: 'DISCOVERY_READONLY' },
    { name: 'read capabilities only', declared: ['METADATA', 'HEALTH', 'CATALOG', 'SEARCH', 'LOCATIONS'], want: 'DISCOVERY_READONLY' },
    { name: 'optional transactional extras without a transactional core', declared: ['CATALOG', 'ACTION_CANCEL', 'PAYMENT_OPTIONS'], want: 'DISCOVERY_READONLY' },
    { name: 'QUOTE', declared: ['CATALOG', 'QUOTE'], want: 'TRANSACTIONAL' },
    { name: 'ACTION_CREATE', declared: ['ACTION_CREATE'], want: 'TRANSACTIONAL' },
    { name: 'ACTION_STATUS', declared: ['ACTION_STATUS'], want: 'TRANSACTIONAL' },
    { name: 'WEBHOOK', declared: ['WEBHOOK'], want: 'TRANSACTIONAL' },
    { name: 'explicit DISCOVERY_READONLY wins over QUOTE', explicit: 'DISCOVERY_READONLY', declared: ['QUOTE', 'ACTION_CREATE'], want: 'DISCOVERY_READONLY' },
    { name: 'explicit TRANSACTIONAL wins over read-only capabilities', explicit: 'TRANSACTIONAL', declared: ['CATALOG'], want: 'TRANSACTIONAL' },
  ];
  for (const c of cases) {
    it(`${c.name} → ${c.want}`, () => {
      expect(inferProfile(c.explicit, new Set(c.declared))).toBe(c.want);
    });
  }
});

describe('resolveFulfillment', () => {
  const info = (fields: Partial<ProviderInfoView> & Record<string, unknown>): ProviderInfoView => ({
    id: 'p1', slug: 'demo', name: 'Demo', status: 'ACTIVE', type: 'FOOD', capabilities: [], ...fields,
  });
  const cases: { name: string; explicit?: string; info?: ProviderInfoView; want: string }[] = [
    { name: 'the flag, upper-cased', explicit: 'pickup', info: info({ type: 'DELIVERY', fulfillment: 'DELIVERY' }), want: 'PICKUP' },
    { name: 'the flag without provider-info', explicit: 'HYBRID', want: 'HYBRID' },
    { name: 'provider-info fulfillment', info: info({ type: 'RETAIL', fulfillment: 'pickup' }), want: 'PICKUP' },
    { name: 'provider-info fulfillmentMode', info: info({ type: 'RETAIL', fulfillmentMode: 'HYBRID' }), want: 'HYBRID' },
    { name: 'fulfillment before fulfillmentMode', info: info({ fulfillment: 'DELIVERY', fulfillmentMode: 'REMOTE' }), want: 'DELIVERY' },
    { name: 'manifest.fulfillment', info: info({ type: 'DELIVERY', manifest: { fulfillment: 'remote' } }), want: 'REMOTE' },
    { name: 'metadata.fulfillment', info: info({ type: 'DELIVERY', metadata: { fulfillment: 'ONSITE' } }), want: 'ONSITE' },
    { name: 'metadata.fulfillmentMode', info: info({ type: 'DELIVERY', metadata: { fulfillmentMode: 'PICKUP' } }), want: 'PICKUP' },
    { name: 'a non-string field is ignored', info: info({ type: 'DELIVERY', fulfillment: 42 }), want: 'DELIVERY' },
    { name: 'type DELIVERY by default', info: info({ type: 'DELIVERY' }), want: 'DELIVERY' },
    { name: 'type delivery, any case', info: info({ type: 'delivery' }), want: 'DELIVERY' },
    { name: 'type RETAIL by default', info: info({ type: 'RETAIL' }), want: 'ONSITE' },
    { name: 'type BOOKINGS by default', info: info({ type: 'BOOKINGS' }), want: 'ONSITE' },
    { name: 'any other type by default', info: info({ type: 'FOOD' }), want: 'REMOTE' },
    { name: 'no provider-info at all', want: 'REMOTE' },
  ];
  for (const c of cases) {
    it(`${c.name} → ${c.want}`, () => {
      expect(resolveFulfillment(c.explicit, c.info)).toBe(c.want);
    });
  }
});

describe('skipReasonFor', () => {
  let contract: Contract;
  beforeAll(async () => {
    contract = await loadContract();
  });

  const context = (profile: Profile, declared: string[], authMethod: AuthMethod = 'API_KEY'): ApplicabilityContext => ({
    config: testConfig('http://127.0.0.1:1'),
    contract,
    declared: new Set(declared),
    profile,
    fulfillment: 'REMOTE',
    authMethod,
  });
  const def = (appliesTo: Omit<CheckDefinition['appliesTo'], 'description'>, skipReason?: CheckDefinition['skipReason']): CheckDefinition => ({
    id: 'search',
    title: 'test check',
    rule: 'test rule',
    requirements: ['TEST-RULE'],
    appliesTo: { ...appliesTo, description: 'test' },
    ...(skipReason ? { skipReason } : {}),
    run: async () => ({ status: 'pass', message: 'ok', evidence: [] }),
  });

  const cases: { name: string; appliesTo: Omit<CheckDefinition['appliesTo'], 'description'>; ctx: () => ApplicabilityContext; want: string | undefined }[] = [
    { name: 'no restriction applies everywhere', appliesTo: {}, ctx: () => context('DISCOVERY_READONLY', []), want: undefined },
    { name: 'profile listed', appliesTo: { profiles: ['TRANSACTIONAL'] }, ctx: () => context('TRANSACTIONAL', []), want: undefined },
    { name: 'profile not listed', appliesTo: { profiles: ['TRANSACTIONAL'] }, ctx: () => context('DISCOVERY_READONLY', ['QUOTE']), want: 'not part of the DISCOVERY_READONLY profile' },
    { name: 'auth method listed', appliesTo: { authMethods: ['HMAC_SIGNATURE'] }, ctx: () => context('TRANSACTIONAL', [], 'HMAC_SIGNATURE'), want: undefined },
    {
      name: 'auth method not listed',
      appliesTo: { authMethods: ['HMAC_SIGNATURE'] },
      ctx: () => context('TRANSACTIONAL', [], 'BEARER_TOKEN'),
      want: 'applies only to auth method HMAC_SIGNATURE (this run uses BEARER_TOKEN)',
    },
    { name: 'optional operation declared', appliesTo: { operations: ['GET /search'] }, ctx: () => context('DISCOVERY_READONLY', ['SEARCH']), want: undefined },
    {
      name: 'optional operation not declared',
      appliesTo: { operations: ['GET /search'] },
      ctx: () => context('TRANSACTIONAL', ['CATALOG', 'QUOTE']),
      want: 'capability SEARCH is not declared and not required in the TRANSACTIONAL profile',
    },
    { name: 'operation required in the profile though not declared', appliesTo: { operations: ['POST /quote'] }, ctx: () => context('TRANSACTIONAL', []), want: undefined },
    {
      name: 'operation required only in another profile, not declared',
      appliesTo: { operations: ['POST /quote'] },
      ctx: () => context('DISCOVERY_READONLY', ['CATALOG']),
      want: 'capability QUOTE is not declared and not required in the DISCOVERY_READONLY profile',
    },
    { name: 'operation required only in another profile, but declared', appliesTo: { operations: ['POST /quote'] }, ctx: () => context('DISCOVERY_READONLY', ['QUOTE']), want: undefined },
    { name: 'operation required in both profiles', appliesTo: { operations: ['GET /catalog'] }, ctx: () => context('DISCOVERY_READONLY', []), want: undefined },
    { name: 'one of several operations applies', appliesTo: { operations: ['GET /search', 'GET /actions/{id}/payment-options'] }, ctx: () => context('TRANSACTIONAL', ['PAYMENT_OPTIONS']), want: undefined },
    {
      name: 'none of several operations applies, capabilities listed once each',
      appliesTo: { operations: ['GET /actions/{id}/payment-options', 'POST /actions/{id}/cancel', 'GET /search'] },
      ctx: () => context('TRANSACTIONAL', []),
      want: 'capability PAYMENT_OPTIONS, ACTION_CANCEL, SEARCH is not declared and not required in the TRANSACTIONAL profile',
    },
    {
      name: 'an operation the spec does not know',
      appliesTo: { operations: ['GET /nowhere'] },
      ctx: () => context('TRANSACTIONAL', ['SEARCH']),
      want: 'capability GET /nowhere is not declared and not required in the TRANSACTIONAL profile',
    },
    { name: 'profile is judged before operations', appliesTo: { profiles: ['TRANSACTIONAL'], operations: ['GET /search'] }, ctx: () => context('DISCOVERY_READONLY', []), want: 'not part of the DISCOVERY_READONLY profile' },
  ];
  for (const c of cases) {
    it(`${c.name} → ${c.want ?? 'applies'}`, () => {
      expect(skipReasonFor(def(c.appliesTo), c.ctx())).toBe(c.want);
    });
  }

  it('consults a custom skipReason only when the declarative rules let the check apply', () => {
    let asked = 0;
    const custom = (ctx: ApplicabilityContext): string | undefined => {
      asked++;
      return ctx.fulfillment === 'REMOTE' ? 'REMOTE fulfillment needs no location' : undefined;
    };
    expect(skipReasonFor(def({ operations: ['GET /search'] }, custom), context('TRANSACTIONAL', ['SEARCH']))).toBe('REMOTE fulfillment needs no location');
    expect(skipReasonFor(def({ operations: ['GET /search'] }, custom), { ...context('TRANSACTIONAL', ['SEARCH']), fulfillment: 'DELIVERY' })).toBeUndefined();
    expect(asked).toBe(2);
    expect(skipReasonFor(def({ operations: ['GET /search'] }, custom), context('TRANSACTIONAL', []))).toBe('capability SEARCH is not declared and not required in the TRANSACTIONAL profile');
    expect(asked).toBe(2);
  });
});
