import { authHeader } from '../http/auth.js';
import type { AuthOverride, HttpOutcome, ProviderRequest } from '../http/types.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { findEcho } from './support/echo.js';
import { keepEvidence } from './support/evidence.js';
import { probeCredential } from './support/probe-credential.js';
import { quoteProbeBody } from './support/quote-probe.js';
import { markReproduce } from './support/tx.js';

/** One probe: a request whose answer should be an error, and what it would wrongly repeat. */
interface Probe {
  what: string;
  request: ProviderRequest;
  /** The credential-derived values this request carried (its authentication header value, the credential). */
  sent: readonly string[];
}

/** A JSON body cut short: a malformed request any provider must refuse with an error answer. */
const MALFORMED_BODY = '{"providerSlug": "provcert-malformed", "items": [';

/** What a request's authentication header carried: the value itself and, for a bearer token, the token. */
function sentValues(ctx: CheckContext, credentials: readonly string[], body: string): string[] {
  return credentials.flatMap((credential) => {
    const [, value] = authHeader(ctx.config.auth, credential, body);
    return value === credential ? [credential] : [credential, value];
  });
}

function probes(ctx: CheckContext, quoteBody: Record<string, unknown> | undefined): Probe[] {
  const wrong = probeCredential(ctx.config.seed);
  const wrongAuth: AuthOverride = { kind: 'credential', credential: wrong };
  const unknownId = `provcert-unknown-${ctx.config.seed}`;
  const list: Probe[] = [
    {
      what: 'GET /catalog with a wrong credential',
      request: { method: 'GET', path: '/catalog', auth: wrongAuth },
      sent: sentValues(ctx, [wrong], ''),
    },
    {
      what: `GET /offerings/${unknownId} (an unknown id)`,
      request: { method: 'GET', path: `/offerings/${encodeURIComponent(unknownId)}` },
      sent: sentValues(ctx, ctx.secrets, ''),
    },
  ];
  if (quoteBody) {
    const json = JSON.stringify(quoteBody);
    list.push(
      {
        what: 'POST /quote with a wrong credential',
        request: { method: 'POST', path: '/quote', rawBody: json, auth: wrongAuth },
        sent: sentValues(ctx, [wrong], json),
      },
      {
        what: 'POST /quote with a malformed JSON body',
        request: { method: 'POST', path: '/quote', rawBody: MALFORMED_BODY },
        sent: sentValues(ctx, ctx.secrets, MALFORMED_BODY),
      },
    );
  }
  return list;
}

function judge(ctx: CheckContext, f: Findings, probe: Probe, outcome: HttpOutcome): string | undefined {
  // Without an answer read in full there is nothing to search (the client keeps only masked evidence).
  if (outcome.kind !== 'response') return undefined;
  const answered = `${probe.what}: HTTP ${outcome.status}`;
  const found = [
    { label: 'the credential or authentication header value it was sent', values: probe.sent },
    { label: "this run's credential or webhook secret", values: ctx.secrets },
  ].flatMap(({ label, values }) => {
    const places = findEcho(outcome, values);
    return places.length > 0 ? [{ label, places }] : [];
  });
  const first = found[0];
  if (first) {
    keepEvidence(f, outcome);
    markReproduce(f, ctx, outcome);
    f.problem(
      `the answer (HTTP ${outcome.status}) to ${probe.what} repeats ${first.label}, in ${first.places.join(', ')}; credentials and header values must be kept out of answers and masked when reporting errors (the report masks it)`,
    );
  }
  return answered;
}

export const check: CheckDefinition = {
  id: 'credential-echo',
  title: 'Error answers do not repeat the credential or header values',
  group: 'read',
  rule: 'Contract, Authentication §7: "Keys are kept out of logs, source control and prompts; header values are masked when reporting errors."; docs/decisions.md, Credentials in error answers',
  requirements: ['SECRETS-KEPT-OUT-OF-LOGS'],
  appliesTo: {
    description:
      'every provider (POST /quote probes only where POST requests may be sent: TRANSACTIONAL, safe test environment)',
  },
  async run(ctx) {
    const f = new Findings();
    const list = probes(ctx, await quoteProbeBody(ctx));
    const outcomes = await Promise.all(list.map((p) => ctx.client.send(p.request)));
    const answered = list.flatMap((probe, i) => {
      const outcome = outcomes[i];
      const line = outcome ? judge(ctx, f, probe, outcome) : undefined;
      return line ? [line] : [];
    });
    if (answered.length === 0) {
      f.warn('no probe was answered, so no answer could be searched for a repeated credential');
      return f.outcome('no answer to search for a repeated credential');
    }
    return f.outcome(
      `${answered.join('; ')}: no answer repeats the credential, the webhook secret or an authentication header value, in any encoding`,
    );
  },
};
