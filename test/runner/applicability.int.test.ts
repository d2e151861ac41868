import { beforeAll, describe, expect, it } from 'vitest';
import type { ApplicabilityContext, CheckContext, CheckDefinition } from '../../src/checks/framework/types.js';
import type { ProviderInfoView } from '../../src/checks/framework/views.js';
import { inferProfile, resolveFulfillment } from '../../src/checks/support/profile.js';
import type { Contract } from '../../src/contract/contract.js';
import { loadContract } from '../../src/contract/load.js';
import type { BodyKind, HttpOutcome, TransportFailureKind } from '../../src/http/types.js';
import type { CheckId } from '../../src/model/check-ids.js';
import type { AuthMethod, Profile } from '../../src/model/contract-constants.js';
import type { Exchange } from '../../src/model/exchange.js';
import type { CheckOutcome } from '../../src/model/report.js';
import { spellAsConfigKey } from '../../src/model/setting-speller.js';
import {
  applicabilitySkips,
  causeCarrier,
  causeSkipReason,
  declaredIn,
  isAddressProblem,
  type ProviderInfoCause,
  providerInfoCause,
  skipReasonFor,
} from '../../src/runner/applicability.js';
import { carrying, type RootCause, stoppedRun } from '../../src/runner/root-cause.js';
import { testConfig } from '../support/certify.js';

describe('inferProfile', () => {
  const cases: { name: string; explicit?: Profile; declared: string[]; want: Profile }[] = [
    { name: 'nothing declared', declared: [], want: 'DISCOVERY_READONLY' },
    {
      name: 'read capabilities only',
      declared: ['METADATA', 'HEALTH', 'CATALOG', 'SEARCH', 'LOCATIONS'],
      want: 'DISCOVERY_READONLY',
    },
    {
      name: 'optional transactional extras without a transactional core',
      declared: ['CATALOG', 'ACTION_CANCEL', 'PAYMENT_OPTIONS'],
      want: 'DISCOVERY_READONLY',
    },
    { name: 'QUOTE', declared: ['CATALOG', 'QUOTE'], want: 'TRANSACTIONAL' },
    { name: 'ACTION_CREATE', declared: ['ACTION_CREATE'], want: 'TRANSACTIONAL' },
    { name: 'ACTION_STATUS', declared: ['ACTION_STATUS'], want: 'TRANSACTIONAL' },
    { name: 'WEBHOOK', declared: ['WEBHOOK'], want: 'TRANSACTIONAL' },
    {
      name: 'explicit DISCOVERY_READONLY wins over QUOTE',
      explicit: 'DISCOVERY_READONLY',
      declared: ['QUOTE', 'ACTION_CREATE'],
      want: 'DISCOVERY_READONLY',
    },
    {
      name: 'explicit TRANSACTIONAL wins over read-only capabilities',
      explicit: 'TRANSACTIONAL',
      declared: ['CATALOG'],
      want: 'TRANSACTIONAL',
    },
  ];
  for (const c of cases) {
    it(`${c.name} → ${c.want}`, () => {
      expect(inferProfile(c.explicit, new Set(c.declared))).toBe(c.want);
    });
  }
});

describe('resolveFulfillment', () => {
  const info = (fields: Partial<ProviderInfoView> & Record<string, unknown>): ProviderInfoView => ({
    id: 'p1',
    slug: 'demo',
    name: 'Demo',
    status: 'ACTIVE',
    type: 'FOOD',
    capabilities: [],
    ...fields,
  });
  const cases: { name: string; explicit?: string; info?: ProviderInfoView; want: string }[] = [
    {
      name: 'the flag, upper-cased',
      explicit: 'pickup',
      info: info({ type: 'DELIVERY', fulfillment: 'DELIVERY' }),
      want: 'PICKUP',
    },
    { name: 'the flag without provider-info', explicit: 'HYBRID', want: 'HYBRID' },
    { name: 'provider-info fulfillment', info: info({ type: 'RETAIL', fulfillment: 'pickup' }), want: 'PICKUP' },
    {
      name: 'provider-info fulfillmentMode',
      info: info({ type: 'RETAIL', fulfillmentMode: 'HYBRID' }),
      want: 'HYBRID',
    },
    {
      name: 'fulfillment before fulfillmentMode',
      info: info({ fulfillment: 'DELIVERY', fulfillmentMode: 'REMOTE' }),
      want: 'DELIVERY',
    },
    {
      name: 'manifest.fulfillment',
      info: info({ type: 'DELIVERY', manifest: { fulfillment: 'remote' } }),
      want: 'REMOTE',
    },
    {
      name: 'metadata.fulfillment',
      info: info({ type: 'DELIVERY', metadata: { fulfillment: 'ONSITE' } }),
      want: 'ONSITE',
    },
    {
      name: 'metadata.fulfillmentMode',
      info: info({ type: 'DELIVERY', metadata: { fulfillmentMode: 'PICKUP' } }),
      want: 'PICKUP',
    },
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
    spell: spellAsConfigKey,
  });
  const def = (
    appliesTo: Omit<CheckDefinition['appliesTo'], 'description'>,
    skipReason?: CheckDefinition['skipReason'],
  ): CheckDefinition => ({
    id: 'search',
    group: 'read',
    title: 'test check',
    rule: 'test rule',
    requirements: ['TEST-RULE'],
    appliesTo: { ...appliesTo, description: 'test' },
    ...(skipReason ? { skipReason } : {}),
    run: async () => ({ status: 'pass', message: 'ok', evidence: [] }),
  });

  const cases: {
    name: string;
    appliesTo: Omit<CheckDefinition['appliesTo'], 'description'>;
    ctx: () => ApplicabilityContext;
    want: string | undefined;
  }[] = [
    {
      name: 'no restriction applies everywhere',
      appliesTo: {},
      ctx: () => context('DISCOVERY_READONLY', []),
      want: undefined,
    },
    {
      name: 'profile listed',
      appliesTo: { profiles: ['TRANSACTIONAL'] },
      ctx: () => context('TRANSACTIONAL', []),
      want: undefined,
    },
    {
      name: 'profile not listed',
      appliesTo: { profiles: ['TRANSACTIONAL'] },
      ctx: () => context('DISCOVERY_READONLY', ['QUOTE']),
      want: 'not part of the DISCOVERY_READONLY profile',
    },
    {
      name: 'auth method listed',
      appliesTo: { authMethods: ['HMAC_SIGNATURE'] },
      ctx: () => context('TRANSACTIONAL', [], 'HMAC_SIGNATURE'),
      want: undefined,
    },
    {
      name: 'auth method not listed',
      appliesTo: { authMethods: ['HMAC_SIGNATURE'] },
      ctx: () => context('TRANSACTIONAL', [], 'BEARER_TOKEN'),
      want: 'applies only to auth method HMAC_SIGNATURE (this run uses BEARER_TOKEN)',
    },
    {
      name: 'optional operation declared',
      appliesTo: { operations: ['GET /search'] },
      ctx: () => context('DISCOVERY_READONLY', ['SEARCH']),
      want: undefined,
    },
    {
      name: 'optional operation not declared',
      appliesTo: { operations: ['GET /search'] },
      ctx: () => context('TRANSACTIONAL', ['CATALOG', 'QUOTE']),
      want: 'capability SEARCH is not declared and not required in the TRANSACTIONAL profile',
    },
    {
      name: 'operation required in the profile though not declared',
      appliesTo: { operations: ['POST /quote'] },
      ctx: () => context('TRANSACTIONAL', []),
      want: undefined,
    },
    {
      name: 'operation required only in another profile, not declared',
      appliesTo: { operations: ['POST /quote'] },
      ctx: () => context('DISCOVERY_READONLY', ['CATALOG']),
      want: 'capability QUOTE is not declared and not required in the DISCOVERY_READONLY profile',
    },
    {
      name: 'operation required only in another profile, but declared',
      appliesTo: { operations: ['POST /quote'] },
      ctx: () => context('DISCOVERY_READONLY', ['QUOTE']),
      want: undefined,
    },
    {
      name: 'operation required in both profiles',
      appliesTo: { operations: ['GET /catalog'] },
      ctx: () => context('DISCOVERY_READONLY', []),
      want: undefined,
    },
    {
      name: 'one of several operations applies',
      appliesTo: { operations: ['GET /search', 'GET /actions/{id}/payment-options'] },
      ctx: () => context('TRANSACTIONAL', ['PAYMENT_OPTIONS']),
      want: undefined,
    },
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
    {
      name: 'profile is judged before operations',
      appliesTo: { profiles: ['TRANSACTIONAL'], operations: ['GET /search'] },
      ctx: () => context('DISCOVERY_READONLY', []),
      want: 'not part of the DISCOVERY_READONLY profile',
    },
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
    expect(skipReasonFor(def({ operations: ['GET /search'] }, custom), context('TRANSACTIONAL', ['SEARCH']))).toBe(
      'REMOTE fulfillment needs no location',
    );
    expect(
      skipReasonFor(def({ operations: ['GET /search'] }, custom), {
        ...context('TRANSACTIONAL', ['SEARCH']),
        fulfillment: 'DELIVERY',
      }),
    ).toBeUndefined();
    expect(asked).toBe(2);
    expect(skipReasonFor(def({ operations: ['GET /search'] }, custom), context('TRANSACTIONAL', []))).toBe(
      'capability SEARCH is not declared and not required in the TRANSACTIONAL profile',
    );
    expect(asked).toBe(2);
  });
});

const EXCHANGE: Exchange = {
  request: { method: 'GET', url: 'http://127.0.0.1:1/provider-info', headers: {} },
  durationMs: 1,
};
const answer = (
  status: number,
  bodyKind: BodyKind = 'json',
  json: unknown = {},
  contentType = 'application/json',
): HttpOutcome => ({
  kind: 'response',
  status,
  headers: {},
  contentType,
  text: '',
  bodyKind,
  json: bodyKind === 'json' ? json : undefined,
  durationMs: 1,
  exchange: EXCHANGE,
});
const noAnswer = (failure: TransportFailureKind, message: string): HttpOutcome => ({
  kind: 'failure',
  failure,
  message,
  durationMs: 1,
  exchange: EXCHANGE,
});

describe('providerInfoCause: the one root cause an unusable GET /provider-info is', () => {
  const cases: { name: string; outcome: HttpOutcome; want: ProviderInfoCause | undefined }[] = [
    { name: 'a JSON 200 is usable', outcome: answer(200), want: undefined },
    {
      name: '401 with a code',
      outcome: answer(401, 'json', { code: 'UNAUTHORIZED' }),
      want: { kind: 'refused', summary: 'GET /provider-info was refused for the credential (HTTP 401 UNAUTHORIZED)' },
    },
    {
      name: '403 without a body',
      outcome: answer(403, 'empty'),
      want: { kind: 'refused', summary: 'GET /provider-info was refused for the credential (HTTP 403)' },
    },
    {
      name: 'connection refused',
      outcome: noAnswer('refused', 'connection to 127.0.0.1:1 refused'),
      want: {
        kind: 'unreachable',
        summary: 'the provider could not be reached (GET /provider-info: connection to 127.0.0.1:1 refused)',
      },
    },
    {
      name: 'a timeout',
      outcome: noAnswer('timeout', 'timed out after 10 ms'),
      want: {
        kind: 'unreachable',
        summary: 'the provider could not be reached (GET /provider-info: timed out after 10 ms)',
      },
    },
    {
      name: 'a redirect is an answer, not unreachable',
      outcome: noAnswer('redirect', 'redirected to /login'),
      want: { kind: 'unusable', summary: 'GET /provider-info gave no usable answer (redirected to /login)' },
    },
    {
      name: '500 with a code',
      outcome: answer(500, 'json', { code: 'INTERNAL' }),
      want: { kind: 'unusable', summary: 'GET /provider-info answered HTTP 500 INTERNAL, not 200' },
    },
    {
      name: 'an HTML page',
      outcome: answer(200, 'html', undefined, 'text/html'),
      want: {
        kind: 'unusable',
        summary:
          'GET /provider-info did not answer JSON (it answered an HTML page (content-type text/html): the base URL looks like a website or frontend, not the provider API)',
      },
    },
    {
      name: 'truncated JSON',
      outcome: answer(200, 'truncated-json'),
      want: {
        kind: 'unusable',
        summary:
          'GET /provider-info did not answer JSON (it answered truncated or malformed JSON (content-type application/json))',
      },
    },
    {
      name: 'text that is not JSON',
      outcome: answer(200, 'not-json', undefined, 'text/plain'),
      want: {
        kind: 'unusable',
        summary:
          'GET /provider-info did not answer JSON (it answered a body that is not JSON (content-type text/plain))',
      },
    },
  ];
  it.each(cases)('$name', ({ outcome, want }) => {
    expect(providerInfoCause(outcome)).toEqual(want);
  });
});

describe('isAddressProblem: base-url reports it when GET /health shows the same', () => {
  const cases: { name: string; info: HttpOutcome; health: HttpOutcome; want: boolean }[] = [
    { name: 'both unreachable', info: noAnswer('refused', 'r'), health: noAnswer('refused', 'r'), want: true },
    {
      name: 'provider-info times out, health answers',
      info: noAnswer('timeout', 't'),
      health: answer(200),
      want: false,
    },
    { name: 'both HTML', info: answer(200, 'html'), health: answer(200, 'html'), want: true },
    { name: 'provider-info HTML only', info: answer(200, 'html'), health: answer(200), want: false },
    { name: 'both 404', info: answer(404), health: answer(404), want: true },
    { name: 'provider-info 404 only', info: answer(404), health: answer(200), want: false },
    { name: 'a 401 is never an address problem', info: answer(401), health: answer(401), want: false },
  ];
  it.each(cases)('$name → $want', ({ info, health, want }) => {
    expect(isAddressProblem(info, health)).toBe(want);
  });
});

describe('declaredIn: capabilities a schema-invalid provider-info still declares', () => {
  const known = ['METADATA', 'CATALOG', 'QUOTE'];
  const cases: { name: string; json: unknown; want: string[] | undefined }[] = [
    { name: 'contract names kept', json: { capabilities: ['METADATA', 'QUOTE'] }, want: ['METADATA', 'QUOTE'] },
    { name: 'other names dropped', json: { capabilities: ['CATALOG', 'TELEPORT'] }, want: ['CATALOG'] },
    { name: 'an empty list is a declaration', json: { capabilities: [] }, want: [] },
    { name: 'missing', json: { name: 'x' }, want: undefined },
    { name: 'not a list', json: { capabilities: 'QUOTE' }, want: undefined },
    { name: 'not all strings', json: { capabilities: ['QUOTE', 7] }, want: undefined },
    { name: 'not an object', json: null, want: undefined },
  ];
  it.each(cases)('$name', ({ json, want }) => {
    expect(declaredIn(json, known)).toEqual(want);
  });
});

describe('causeCarrier and causeSkipReason', () => {
  it.each<[string, boolean, CheckId[], 'base-url' | 'metadata']>([
    ['an address problem goes to base-url', true, ['base-url', 'metadata', 'catalog'], 'base-url'],
    ['an address problem without base-url goes to metadata', true, ['metadata', 'catalog'], 'metadata'],
    ['a refused credential goes to metadata', false, ['base-url', 'metadata'], 'metadata'],
    ['metadata carries it even when not selected (the runner adds it)', false, ['catalog'], 'metadata'],
  ])('%s', (_name, address, selected, want) => {
    expect(causeCarrier(address, selected)).toBe(want);
  });

  it('names the cause and where to read it', () => {
    expect(
      causeSkipReason(
        { kind: 'refused', summary: 'GET /provider-info was refused for the credential (HTTP 401)' },
        'metadata',
      ),
    ).toBe('skipped: GET /provider-info was refused for the credential (HTTP 401) — see metadata');
  });
});

describe('applicabilitySkips: safety of the transactional checks (they create orders)', () => {
  let contract: Contract;
  beforeAll(async () => {
    contract = await loadContract();
  });
  const ordering: CheckDefinition = {
    id: 'payment-pending',
    title: 't',
    rule: 'r',
    requirements: ['R'],
    appliesTo: { description: 'd' },
    group: 'transactional',
    run: async () => ({ status: 'pass', message: 'ok', evidence: [] }),
  };
  const reading: CheckDefinition = { ...ordering, id: 'search', group: 'read' };
  it.each<['safe' | 'unsafe' | 'unconfirmed', RegExp | undefined]>([
    ['safe', undefined],
    ['unsafe', /safeTestEnvironment is not true \(see metadata\); no POST request was sent$/],
    [
      'unconfirmed',
      /GET \/provider-info does not match the schema, so its safe test environment is not confirmed \(see metadata\); no POST request was sent$/,
    ],
  ])('%s', (safety, want) => {
    const ctx: ApplicabilityContext = {
      config: testConfig('http://127.0.0.1:1'),
      contract,
      declared: new Set(),
      profile: 'TRANSACTIONAL',
      fulfillment: 'REMOTE',
      authMethod: 'API_KEY',
      spell: spellAsConfigKey,
    };
    const skips = applicabilitySkips([ordering, reading], ctx, safety);
    const reason = skips.get('payment-pending');
    if (want) expect(reason).toMatch(want);
    else expect(reason).toBeUndefined();
    expect(skips.has('search'), 'a read check runs whatever the safety').toBe(false);
  });
});

describe('stoppedRun and carrying: one check reports the root cause, the others are skipped naming it', () => {
  const cause: RootCause = {
    kind: 'refused',
    summary: 'GET /provider-info was refused for the credential (HTTP 401)',
    carrier: 'metadata',
    outcome: answer(401),
  };
  const fake = (id: CheckId, outcome: CheckOutcome): CheckDefinition => ({
    id,
    group: 'read',
    title: id,
    rule: 'r',
    requirements: ['R'],
    appliesTo: { description: 'd' },
    run: async () => outcome,
  });
  const byId = (ids: CheckId[], outcome: CheckOutcome = { status: 'pass', message: 'ok', evidence: [] }) =>
    ids.map((id) => fake(id, outcome));
  const ctx = {} as CheckContext; // the fakes read nothing from it

  it('adds the carrier when the selection left it out, keeps registry order, skips all but the carrier and base-url', () => {
    const all = byId(['base-url', 'metadata', 'health', 'catalog']);
    const { defs, skips } = stoppedRun(
      all.filter((d) => d.id === 'base-url' || d.id === 'catalog'),
      all,
      cause,
    );
    expect(defs.map((d) => d.id)).toEqual(['base-url', 'metadata', 'catalog']);
    expect([...skips]).toEqual([
      ['catalog', 'skipped: GET /provider-info was refused for the credential (HTTP 401) — see metadata'],
    ]);
  });

  it("a carrier that fails states doctor's diagnosis as its message and first problem", async () => {
    const failed: CheckOutcome = {
      status: 'fail',
      message: 'GET /provider-info answered HTTP 401; expected 200',
      evidence: [],
      findings: [
        { severity: 'warn', message: 'w' },
        { severity: 'fail', message: 'GET /provider-info answered HTTP 401; expected 200' },
      ],
    };
    const outcome = await carrying(fake('metadata', failed), {
      ...cause,
      diagnosis: 'the credential itself is not accepted — fix: check it',
    }).run(ctx);
    expect(outcome.message).toBe('the credential itself is not accepted — fix: check it');
    expect(outcome.findings?.map((f) => f.message)).toEqual([
      'w',
      'the credential itself is not accepted — fix: check it',
    ]);
  });

  it('a carrier that passes anyway still fails with the cause provcert saw, its evidence attached', async () => {
    const outcome = await carrying(fake('base-url', { status: 'pass', message: 'reachable', evidence: [] }), {
      ...cause,
      carrier: 'base-url',
    }).run(ctx);
    expect(outcome).toMatchObject({ status: 'fail', message: cause.summary, evidence: [EXCHANGE] });
    expect(outcome.findings).toEqual([
      { severity: 'fail', requirement: 'ROUTE-PROVIDER-INFO', message: cause.summary },
    ]);
  });

  it('a carrier that errs is left as it is', async () => {
    const errored: CheckOutcome = { status: 'error', message: 'the check could not run', evidence: [] };
    expect(await carrying(fake('metadata', errored), cause).run(ctx)).toEqual(errored);
  });
});
