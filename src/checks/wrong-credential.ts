import type { CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { probeAuthentication } from './support/auth-probes.js';

export const check: CheckDefinition = {
  id: 'wrong-credential',
  group: 'read',
  title: 'Wrong, missing and nearly right credentials are rejected with 401 on every route',
  rule: 'Contract, Errors: 401 UNAUTHORIZED "credential missing or wrong"; Authentication §2: the authMethod "is applied to every outbound request"; §7: a 401 means "the wrong direction\'s credential, an auth method or header name differing from the portal setting, stray whitespace around the secret"; Provider route behaviour rule 5: "wrong credential rejected"; docs/decisions.md, Wrong credential',
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
    const sent = await probeAuthentication(ctx, f);
    return f.outcome(
      `${sent.probes} probes (${sent.routes.length} routes × ${sent.shapes} credential shapes: missing, wrong, the webhook secret, another scheme, a prefix, a suffix, changed case, surrounding whitespace): each answered 401 UNAUTHORIZED`,
    );
  },
};
