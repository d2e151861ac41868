import type { AuthOverride, ProviderRequest } from '../http/types.js';
import type { CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { expectError } from './support/expect.js';
import { POST_NOT_PROBED, quoteProbeBody } from './support/quote-probe.js';

export const check: CheckDefinition = {
  id: 'wrong-credential',
  group: 'read',
  title: 'Wrong and missing credentials are rejected with 401',
  rule: 'Contract, Errors: 401 UNAUTHORIZED "credential missing or wrong"; Provider route behaviour rule 5: "wrong credential rejected"; docs/decisions.md, Wrong credential',
  requirements: ['AUTH-WRONG-CREDENTIAL-REJECTED', 'AUTH-MISSING-CREDENTIAL-REJECTED'],
  appliesTo: {
    description:
      'providers using API_KEY or BEARER_TOKEN (with HMAC_SIGNATURE, the signature check covers a wrong and a missing credential)',
  },
  skipReason(ctx) {
    // With HMAC the credential is the signing secret: a wrong one is a wrong signature. One rule, one check.
    if (ctx.authMethod === 'HMAC_SIGNATURE')
      return 'with HMAC_SIGNATURE the credential is the signing secret: a wrong secret and a missing signature are checked by the signature check';
    return undefined;
  },
  async run(ctx) {
    const f = new Findings();
    const wrong: AuthOverride = { kind: 'credential', credential: `provcert-wrong-credential-${ctx.config.seed}` };
    const none: AuthOverride = { kind: 'none' };
    const requests: { what: string; request: ProviderRequest }[] = [
      { what: 'wrong credential on GET /catalog', request: { method: 'GET', path: '/catalog', auth: wrong } },
      { what: 'missing credential on GET /catalog', request: { method: 'GET', path: '/catalog', auth: none } },
    ];
    const json = await quoteProbeBody(ctx);
    if (json) {
      requests.push(
        { what: 'wrong credential on POST /quote', request: { method: 'POST', path: '/quote', json, auth: wrong } },
        { what: 'missing credential on POST /quote', request: { method: 'POST', path: '/quote', json, auth: none } },
      );
    } else {
      f.warn(POST_NOT_PROBED);
    }
    const outcomes = await Promise.all(requests.map((r) => ctx.client.send(r.request)));
    requests.forEach((r, i) => {
      const outcome = outcomes[i];
      if (outcome)
        expectError(f, outcome, {
          what: r.what,
          statuses: [401],
          codes: ['UNAUTHORIZED'],
          requirement: r.what.startsWith('missing')
            ? 'AUTH-MISSING-CREDENTIAL-REJECTED'
            : 'AUTH-WRONG-CREDENTIAL-REJECTED',
        });
    });
    return f.outcome(`${requests.map((r) => r.what).join(', ')}: each answered 401 UNAUTHORIZED`);
  },
};
