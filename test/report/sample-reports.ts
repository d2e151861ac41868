import type { CheckResult, RunReport } from '../../src/model/report.js';

/** A secret that must appear in no output: placed where a careless engine could have left it. */
export const CANARY = 'canary-secret-7f3a9c1e';

/** Provider-controlled strings that try to break each output format. */
export const INJECTED_SCRIPT = '<script>window.__provcertInjected = true</script>';
export const INJECTED_IMG = '<img src="https://tracker.invalid/x.png" onerror="window.__provcertInjected = true">';
export const HOSTILE = `${INJECTED_SCRIPT} | pipe ]]> ::error::owned %0A\nsecond line, with: colon`;
export const ANSI_BELL = '\u001b[2J\u0007';

const BASE = 'http://127.0.0.1:4010';

const pass = (id: CheckResult['id'], title: string, durationMs = 12): CheckResult => ({
  id,
  title,
  rule: `Contract rule for ${id}`,
  requirements: [`${id.toUpperCase()}-RULE`],
  status: 'pass',
  message: `${id} conforms`,
  durationMs,
  evidence: [],
  findings: [],
});

function quoteMathFailure(): CheckResult {
  return {
    id: 'quote-math',
    title: 'Quote matches the selection and its math holds',
    rule: 'Provider route behaviour 1: total = subtotal + totalFees − totalDiscount',
    requirements: ['QUOTE-TOTAL', 'QUOTE-SUBTOTAL'],
    status: 'fail',
    message: 'total 2350 ≠ subtotal 2100 + fees 300 − discount 0',
    findings: [
      { severity: 'fail', requirement: 'QUOTE-TOTAL', message: 'total 2350 ≠ subtotal 2100 + fees 300 − discount 0' },
      { severity: 'fail', requirement: 'QUOTE-TOTAL', message: `line 1 offeringTitle is provider text: ${HOSTILE}` },
      { severity: 'fail', requirement: 'QUOTE-TOTAL', message: `control characters${ANSI_BELL} are dropped` },
    ],
    details: [`line 1 offeringTitle is provider text: ${HOSTILE}`, `control characters${ANSI_BELL} are dropped`],
    expected: { total: 2400 },
    actual: { total: 2350, note: INJECTED_SCRIPT },
    durationMs: 48,
    evidence: [
      {
        request: {
          method: 'POST',
          url: `${BASE}/quote`,
          // An engine bug left credentials unmasked: reporters must mask them anyway.
          headers: {
            'content-type': 'application/json',
            'x-provider-api-key': CANARY,
            authorization: `Bearer ${CANARY}`,
            cookie: `session=${CANARY}`,
          },
          body: '{"providerSlug":"demo-pizza","items":[{"offeringId":"pizza-1","quantity":2}]}',
          auth: 'configured',
        },
        response: {
          status: 200,
          headers: { 'content-type': 'application/json', 'x-service-signature': CANARY },
          body: `{"id":"q-1","total":2350,"offeringTitle":"${INJECTED_IMG.replace(/"/g, '\\"')}"}`,
          truncated: false,
        },
        durationMs: 9,
      },
    ],
    reproduce: `BODY='{"providerSlug":"demo-pizza"}'\ncurl -sS -i -X POST '${BASE}/quote' \\\n  -H "x-provider-api-key: $PROVIDER_API_KEY" \\\n  --data-binary "$BODY"`,
    quoteMath: [
      { label: 'line 1 optionsTotal', formula: '150 × 1 × 2', expected: 300, actual: 300, ok: true },
      { label: 'line 1 lineTotal', formula: '900 × 2 + 300', expected: 2100, actual: 2100, ok: true },
      { label: 'total', formula: '2100 + 300 − 0', expected: 2400, actual: 2350, ok: false },
    ],
  };
}

function webhookFailure(): CheckResult {
  return {
    id: 'webhook',
    title: 'Signed status events arrive',
    rule: 'Events: each created test order dispatches a signed action.status_updated event',
    requirements: ['WEBHOOK-SIGNATURE'],
    status: 'fail',
    message: 'the event signature does not verify: it matches a signature over re-serialized JSON',
    findings: [
      {
        severity: 'fail',
        requirement: 'WEBHOOK-SIGNATURE',
        message: 'the event signature does not verify: it matches a signature over re-serialized JSON',
      },
    ],
    durationMs: 1200,
    evidence: [],
    webhookTimeline: [
      {
        receivedAt: '2025-03-01T10:00:01.000Z',
        eventId: 'evt-1',
        eventType: 'action.status_updated',
        actionId: 'act-1',
        newStatus: 'AWAITING_PAYMENT',
        verified: false,
        header: 'x-service-signature',
        diagnosis: `signed re-serialized JSON ${INJECTED_SCRIPT}`,
      },
    ],
  };
}

export function failingReport(): RunReport {
  const checks: CheckResult[] = [
    pass('base-url', 'Base address is public HTTPS'),
    {
      ...pass('metadata', 'Provider info and manifest', 20),
      warnings: ['catalog price differs from quote: 900 vs 950 (100%: not a failure)'],
      findings: [
        {
          severity: 'warn',
          requirement: 'METADATA-RULE',
          message: 'catalog price differs from quote: 900 vs 950 (100%: not a failure)',
        },
      ],
    },
    pass('catalog', 'Catalog schema and consistency'),
    {
      id: 'search',
      title: 'Search',
      rule: 'GET /search when declared',
      requirements: ['SEARCH-ROUTE'],
      findings: [],
      status: 'skip',
      message: `SEARCH is not declared | skipped ${INJECTED_SCRIPT}`,
      durationMs: 0,
      evidence: [],
    },
    quoteMathFailure(),
    webhookFailure(),
    {
      id: 'wrong-credential',
      title: 'Wrong and missing credentials are rejected',
      rule: 'Errors: 401 UNAUTHORIZED',
      requirements: ['AUTH-WRONG-CREDENTIAL'],
      status: 'fail',
      message: 'a wrong credential on GET /catalog was answered 200, expected 401 UNAUTHORIZED',
      findings: [
        {
          severity: 'fail',
          requirement: 'AUTH-WRONG-CREDENTIAL',
          message: 'a wrong credential on GET /catalog was answered 200, expected 401 UNAUTHORIZED',
        },
      ],
      durationMs: 7,
      evidence: [
        {
          request: {
            method: 'GET',
            url: `${BASE}/catalog`,
            headers: { 'x-provider-api-key': '****' },
            auth: 'credential',
          },
          response: { status: 200, headers: { 'set-cookie': `sid=${CANARY}` }, body: '{"providerSlug":"demo-pizza"}' },
          durationMs: 3,
        },
      ],
    },
    {
      id: 'errors',
      title: 'Error responses',
      rule: 'Errors: ErrorResponse with a documented code',
      requirements: ['ERROR-RESPONSE'],
      findings: [],
      status: 'error',
      message: 'the check could not run: timed out after 10000 ms',
      durationMs: 10000,
      evidence: [
        {
          request: { method: 'GET', url: `${BASE}/no-such-route`, headers: {} },
          failure: 'timed out after 10000 ms',
          durationMs: 10000,
        },
      ],
    },
  ];
  return {
    reportVersion: 1,
    tool: { name: 'provcert', version: '0.1.0' },
    contract: { version: '1.0.0', spec: '1.0.0' },
    provider: {
      baseUrl: BASE,
      slug: 'demo-pizza',
      name: `Demo <b>Pizza</b>`,
      authMethod: 'API_KEY',
      profile: 'TRANSACTIONAL',
      capabilities: ['METADATA', 'HEALTH', 'CATALOG', 'QUOTE'],
      fulfillment: 'DELIVERY',
    },
    verdict: 'FAIL',
    startedAt: '2025-03-01T10:00:00.000Z',
    finishedAt: '2025-03-01T10:00:06.200Z',
    durationMs: 6200,
    summary: { pass: 3, fail: 3, skip: 1, error: 1 },
    checks,
    webhooks: {
      url: 'http://127.0.0.1:8787/api/v1/webhooks/demo-pizza',
      events: [
        {
          receivedAt: '2025-03-01T10:00:01.000Z',
          eventId: 'evt-1',
          eventType: 'action.status_updated',
          actionId: 'act-1',
          newStatus: 'AWAITING_PAYMENT',
          verified: false,
          header: 'x-service-signature',
          diagnosis: `signed re-serialized JSON ${INJECTED_SCRIPT}`,
        },
        {
          receivedAt: '2025-03-01T10:00:02.000Z',
          eventId: 'evt-1',
          eventType: 'action.status_updated',
          actionId: 'act-1',
          newStatus: 'CANCELLED',
          verified: true,
          header: 'x-provider-signature',
          duplicate: true,
        },
      ],
    },
    inputs: { credentialEnv: 'PROVIDER_API_KEY', seed: 'seed-1', only: null },
    requirements: {
      'QUOTE-TOTAL': {
        section: 'Endpoints › Provider route behaviour rules',
        quote: '`total = subtotal + totalFees - totalDiscount`',
      },
      'WEBHOOK-SIGNATURE': {
        section: 'Authentication',
        quote: 'the signature is the hex HMAC-SHA256 of the raw body computed with the webhook secret',
      },
    },
  };
}

export function passingReport(): RunReport {
  const checks: CheckResult[] = [
    pass('base-url', 'Base address is public HTTPS'),
    pass('metadata', 'Provider info and manifest'),
    pass('health', 'Health'),
    pass('catalog', 'Catalog schema and consistency'),
    {
      ...pass('quote-math', 'Quote math', 30),
      quoteMath: [{ label: 'total', formula: '2100 + 300 − 0', expected: 2400, actual: 2400, ok: true }],
    },
    {
      id: 'cancel',
      title: 'Cancel',
      rule: 'POST /actions/{id}/cancel when declared',
      requirements: ['CANCEL-RESULT'],
      findings: [],
      status: 'skip',
      message: 'ACTION_CANCEL is not declared',
      durationMs: 0,
      evidence: [],
    },
  ];
  return {
    reportVersion: 1,
    tool: { name: 'provcert', version: '0.1.0' },
    contract: { version: '1.0.0', spec: '1.0.0' },
    provider: {
      baseUrl: BASE,
      slug: 'demo-pizza',
      name: 'Demo Pizza',
      authMethod: 'HMAC_SIGNATURE',
      profile: 'TRANSACTIONAL',
      capabilities: ['METADATA', 'HEALTH', 'CATALOG'],
      fulfillment: 'REMOTE',
    },
    verdict: 'PASS',
    startedAt: '2025-03-01T10:00:00.000Z',
    finishedAt: '2025-03-01T10:00:05.900Z',
    durationMs: 5900,
    summary: { pass: 5, fail: 0, skip: 1, error: 0 },
    checks,
    webhooks: { url: 'http://127.0.0.1:8787/api/v1/webhooks/demo-pizza', events: [] },
    inputs: { credentialEnv: 'PROVIDER_API_KEY', seed: 'seed-2' },
    requirements: {},
  };
}
