import type { CheckContext, CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { probeAuthentication } from './support/auth-probes.js';
import { keepEvidence } from './support/evidence.js';
import { describeAnswer } from './support/expect.js';
import { quoteProbeBody } from './support/quote-probe.js';

/** POST /quote with a real body, when POSTs may be sent: its pretty-printed form must be accepted. */
async function formattedQuote(ctx: CheckContext): Promise<{ path: string; formatted: string } | undefined> {
  const json = await quoteProbeBody(ctx);
  return json ? { path: '/quote', formatted: JSON.stringify(json, null, 2) } : undefined;
}

/**
 * A correctly signed body in another formatting must be accepted: the signature covers the raw bytes as sent,
 * so a provider that verifies re-serialized JSON refuses it (contract, Authentication: only the raw body bytes).
 */
async function acceptsFormattedBody(ctx: CheckContext, f: Findings): Promise<boolean> {
  const t = await formattedQuote(ctx);
  if (t === undefined) return false;
  const outcome = await ctx.client.send({ method: 'POST', path: t.path, rawBody: t.formatted });
  if (outcome.kind !== 'response' || outcome.status !== 401) return true;
  keepEvidence(f, outcome);
  return f.problem(
    `POST ${t.path} with a pretty-printed JSON body, signed over exactly the bytes sent, was answered ${describeAnswer(outcome)}; ` +
      'the signature covers the raw body bytes, so verify them as received, never re-serialized JSON',
    'AUTH-HMAC-RAW-BODY',
  );
}

export const check: CheckDefinition = {
  id: 'signature',
  group: 'read',
  title: 'Requests whose signature does not match their body, or nearly does, are rejected on every route',
  rule: 'Contract, Authentication §2–§3: HMAC_SIGNATURE sends x-service-signature, "HMAC-SHA256, hex, over the raw request body … The receiver verifies exactly those bytes"; §7: a signed body differing from the sent body gives 401',
  requirements: ['AUTH-HMAC-VERIFIED', 'AUTH-HMAC-RAW-BODY'],
  appliesTo: { authMethods: ['HMAC_SIGNATURE'], description: 'providers using the HMAC_SIGNATURE auth method' },
  async run(ctx) {
    const f = new Findings();
    const [sent, formatted] = await Promise.all([probeAuthentication(ctx, f), acceptsFormattedBody(ctx, f)]);
    return f.outcome(
      `${sent.probes} probes (${sent.routes.length} routes × ${sent.shapes} signature shapes: missing, wrong secret, the webhook secret, the secret as a key, tampered body, truncated, half, suffixed, whitespace, secret case, not hex, upper-case hex): each refused with 401 UNAUTHORIZED (upper-case hex may be accepted)${formatted ? '; a correctly signed pretty-printed body was accepted' : ''}`,
    );
  },
};
