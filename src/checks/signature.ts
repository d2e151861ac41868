import type { AuthOverride, ProviderRequest } from '../http/types.js';
import { SIGNATURE_HEADER } from '../model/contract-constants.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { keepEvidence } from './support/evidence.js';
import { describeAnswer, expectError } from './support/expect.js';
import { POST_NOT_PROBED, quoteProbeBody } from './support/quote-probe.js';

interface SignedRequest {
  method: 'GET' | 'POST';
  path: string;
  /** Bytes actually sent ('' for a GET). */
  body: string;
  /** Other bytes a tampering party would have signed. */
  tampered: string;
  /** The same JSON written with other whitespace: signed over exactly these bytes it must be accepted. */
  formatted?: string;
}

/** GET /catalog (signs the empty string), and POST /quote with a real body when POSTs may be sent. */
async function targets(ctx: CheckContext): Promise<SignedRequest[]> {
  const list: SignedRequest[] = [{ method: 'GET', path: '/catalog', body: '', tampered: '{"tampered":true}' }];
  const json = await quoteProbeBody(ctx);
  if (json) {
    const body = JSON.stringify(json);
    // The same payload with one quantity changed: what a party in the middle would do.
    const tampered = body.replace(/"quantity":(\d+)/, (_m, q: string) => `"quantity":${Number(q) + 1}`);
    list.push({
      method: 'POST',
      path: '/quote',
      body,
      tampered: tampered === body ? `${body} ` : tampered,
      formatted: JSON.stringify(json, null, 2),
    });
  }
  return list;
}

function casesFor(t: SignedRequest, seed: string): { what: string; request: ProviderRequest }[] {
  const route = `${t.method} ${t.path}`;
  const cases: { what: string; auth: AuthOverride }[] = [
    {
      what: `${route} signed over other bytes than the body sent (tampered body)`,
      auth: { kind: 'sign-other-bytes', bytes: t.tampered },
    },
    {
      what: `${route} signed with a wrong secret`,
      auth: { kind: 'credential', credential: `provcert-wrong-secret-${seed}` },
    },
    { what: `${route} without the ${SIGNATURE_HEADER} header`, auth: { kind: 'none' } },
    {
      what: `${route} with a signature that is not hex`,
      auth: { kind: 'headers', headers: { [SIGNATURE_HEADER]: 'not-a-signature' } },
    },
  ];
  return cases.map((c) => ({
    what: c.what,
    request: { method: t.method, path: t.path, auth: c.auth, ...(t.method === 'POST' ? { rawBody: t.body } : {}) },
  }));
}

/**
 * A correctly signed body in another formatting must be accepted: the signature covers the raw bytes as sent,
 * so a provider that verifies re-serialized JSON refuses it (contract, Authentication: only the raw body bytes).
 */
async function acceptsFormattedBody(ctx: CheckContext, f: Findings, t: SignedRequest): Promise<void> {
  if (t.formatted === undefined) return;
  const outcome = await ctx.client.send({ method: t.method, path: t.path, rawBody: t.formatted });
  if (outcome.kind !== 'response' || outcome.status !== 401) return;
  keepEvidence(f, outcome);
  f.problem(
    `${t.method} ${t.path} with a pretty-printed JSON body, signed over exactly the bytes sent, was answered ${describeAnswer(outcome)}; ` +
      'the signature covers the raw body bytes, so verify them as received, never re-serialized JSON',
    'AUTH-HMAC-RAW-BODY',
  );
}

export const check: CheckDefinition = {
  id: 'signature',
  group: 'read',
  title: 'Requests whose signature does not match their body are rejected',
  rule: 'Contract, Authentication §2–§3: HMAC_SIGNATURE sends x-service-signature, "HMAC-SHA256, hex, over the raw request body … The receiver verifies exactly those bytes"; §7: a signed body differing from the sent body gives 401',
  requirements: ['AUTH-HMAC-VERIFIED', 'AUTH-HMAC-RAW-BODY'],
  appliesTo: { authMethods: ['HMAC_SIGNATURE'], description: 'providers using the HMAC_SIGNATURE auth method' },
  async run(ctx) {
    const f = new Findings();
    const list = await targets(ctx);
    const cases = list.flatMap((t) => casesFor(t, ctx.config.seed));
    const [outcomes] = await Promise.all([
      Promise.all(cases.map((c) => ctx.client.send(c.request))),
      ...list.map((t) => acceptsFormattedBody(ctx, f, t)),
    ]);
    cases.forEach((c, i) => {
      const outcome = outcomes[i];
      if (outcome) expectError(f, outcome, { what: c.what, statuses: [401], codes: ['UNAUTHORIZED'] });
    });
    if (list.length === 1) f.warn(POST_NOT_PROBED);
    const routes = list.map((t) => `${t.method} ${t.path}`).join(' and ');
    const formatted = list.some((t) => t.formatted !== undefined)
      ? '; a correctly signed pretty-printed body was accepted'
      : '';
    return f.outcome(
      `${routes}: tampered body, wrong secret, missing and malformed signature each answered 401 UNAUTHORIZED${formatted}`,
    );
  },
};
