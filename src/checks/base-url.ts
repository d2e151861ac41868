import { type AddressRules, type AddressVerdict, judgeBaseAddress } from '../http/base-address.js';
import { describeBody } from '../http/body.js';
import type { HttpOutcome } from '../http/types.js';
import type { ServiceAddress } from '../util/service-address.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { keepEvidence } from './support/evidence.js';

/** The service's own addresses in this run: the embedded receiver (its real port, also when configured as 0). */
function serviceAddresses(ctx: CheckContext): ServiceAddress[] {
  return [{ what: "provcert's own webhook receiver", url: ctx.webhooks.urlFor('provider') }];
}

/** The static address rules, recorded in this check's findings (a warning stands on the check's requirements). */
export function judgeAddress(f: Findings, baseUrl: string, rules: AddressRules): AddressVerdict {
  const verdict = judgeBaseAddress(baseUrl, rules);
  for (const p of verdict.problems) f.problem(p.text, p.requirement);
  for (const w of verdict.warnings) f.warn(w.text);
  return verdict;
}

/** The troubleshooting hint of the contract's Errors section for what GET /health answered, if any. */
async function diagnoseReachability(ctx: CheckContext, f: Findings): Promise<string> {
  const health = await ctx.client.send({ method: 'GET', path: '/health' });
  if (health.kind === 'failure') {
    keepEvidence(f, health);
    if (health.failure === 'timeout')
      return failWith(f, `the provider is unreachable or slow: GET /health ${health.message}`);
    if (health.failure === 'redirect')
      return failWith(
        f,
        `GET /health was redirected (${health.message}); enter the final address as the base URL, redirects are not followed`,
      );
    return failWith(f, `the provider is unreachable: GET /health ${health.message}`);
  }
  if (health.bodyKind === 'html') {
    keepEvidence(f, health);
    return failWith(
      f,
      `this looks like a frontend address: GET /health answered HTTP ${health.status} with ${describeBody(health.bodyKind, health.contentType)}; enter the provider API's base address`,
    );
  }
  if (health.status === 404) {
    const info = await ctx.client.send({ method: 'GET', path: '/provider-info' });
    if (isNotFound(info)) {
      keepEvidence(f, health);
      keepEvidence(f, info);
      return failWith(
        f,
        'wrong base path: GET /health and GET /provider-info both answered 404; the base URL must be the root under which the provider routes live',
      );
    }
  }
  return `GET /health answered HTTP ${health.status}`;
}

const isNotFound = (outcome: HttpOutcome): boolean => outcome.kind === 'response' && outcome.status === 404;

/** Reachability stands on the Errors section's troubleshooting rule, not on the HTTPS rule (issue 22). */
function failWith(f: Findings, text: string): string {
  f.problem(text, 'BASE-URL-REACHABLE');
  return text;
}

export const check: CheckDefinition = {
  id: 'base-url',
  group: 'read',
  // What every run checks: a local run is not judged on public HTTPS, so the title claims reachability only.
  title: 'Base address reaches the provider API (public HTTPS required unless the run is local)',
  rule: 'Contract, What the service does §6: "The provider base address must not end with /health … a provider base address must be public HTTPS"; the portal and core address must never be entered; Errors: "HTML response means a frontend address … 404 means a wrong base path; timeout means the address is not publicly reachable"; docs/decisions.md, Base address',
  requirements: ['BASE-URL-PUBLIC-HTTPS', 'BASE-URL-NO-HEALTH-SUFFIX', 'BASE-URL-NOT-CORE', 'BASE-URL-REACHABLE'],
  appliesTo: { description: 'every run' },
  async run(ctx) {
    const f = new Findings();
    const verdict = judgeAddress(f, ctx.config.baseUrl, {
      local: ctx.config.local,
      service: serviceAddresses(ctx),
      spell: ctx.spell,
    });
    // An unparseable URL cannot be probed; the static problem says why.
    if (verdict.problems.some((p) => p.rule === 'absolute-url')) return f.outcome('');
    const reached = await diagnoseReachability(ctx, f);
    return f.outcome(
      `${ctx.config.baseUrl} is ${ctx.config.local ? 'allowed for a local run' : 'public HTTPS'} and reaches the provider API (${reached})`,
    );
  },
};
