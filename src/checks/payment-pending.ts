import { type CreatedAction, PrerequisiteError } from './framework/resources.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { keepEvidence } from './support/evidence.js';
import { schemaWarnings } from './support/expect.js';
import { noteRequoted, problemAt } from './support/tx.js';

/** Payment states a provider may only report after it verified a payment. */
const PAYMENT_SUCCESS = new Set(['PAID', 'AUTHORIZED']);

/** A problem (fails) and warnings (advice) about one value; either may be absent. */
export interface Judgement {
  problem?: string;
  warnings: string[];
}

/**
 * The checkout URL must be the provider's own: a URL on the service's host fails. The contract asks for no
 * https there (only the provider base address must be public HTTPS), so plain http is a warning (not in a
 * `--local` run, which takes http addresses), and a provider's own path may contain /api/v1 like any other.
 */
export function judgeCheckoutUrl(url: string, webhookUrl: string, local = false): Judgement {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: `nextAction.url "${url}" is not an absolute URL`, warnings: [] };
  }
  const core = new URL(webhookUrl);
  if (parsed.host.toLowerCase() === core.host.toLowerCase())
    return {
      problem: `nextAction.url ${url} points at the service's core/webhook address (${core.host}); it must be the provider's own checkout`,
      warnings: [],
    };
  if (parsed.protocol !== 'https:' && !local)
    return {
      warnings: [
        `nextAction.url ${url} is not https; the contract does not require it, but customers are sent there to pay`,
      ],
    };
  return { warnings: [] };
}

interface NextActionView {
  type?: string;
  url?: unknown;
  label?: unknown;
}

/**
 * nextAction as the contract shows it: OPEN_URL with a provider-owned checkout `url` and a human `label`.
 * "Other NextAction types and their fields: not shown", so another type is a warning and the URL is then
 * not judged; `label` is optional, so its absence is a warning. A missing nextAction, one with neither type nor url, or
 * a missing URL on OPEN_URL fails:
 * "nextAction carries the checkout link".
 */
export function judgeNextAction(
  next: NextActionView | undefined,
  webhookUrl: string,
  name: string,
  local = false,
): Judgement {
  if (next === undefined)
    return {
      problem: `${name} has no nextAction; expected { type: "OPEN_URL", url: <the provider's checkout>, label }`,
      warnings: [],
    };
  // Neither a type nor a link is no checkout link at all, not "another type" (a hole the mutation bench found).
  if (next.type === undefined && (typeof next.url !== 'string' || next.url === ''))
    return {
      problem: `${name} has a nextAction with neither type nor url; expected { type: "OPEN_URL", url: <the provider's checkout>, label }`,
      warnings: [],
    };
  const warnings: string[] = [];
  if (next.type !== 'OPEN_URL') {
    warnings.push(
      `${name} has nextAction.type ${next.type ?? '(missing)'}; the contract shows OPEN_URL (other types are not shown), so its checkout link was not judged`,
    );
    return { warnings };
  }
  if (typeof next.label !== 'string' || next.label.trim() === '')
    warnings.push(`${name} has no nextAction.label; a human label for the checkout link is advised`);
  if (typeof next.url !== 'string' || next.url === '')
    return { problem: `${name} has no nextAction.url; expected the provider's checkout URL`, warnings };
  const url = judgeCheckoutUrl(next.url, webhookUrl, local);
  return { ...(url.problem ? { problem: url.problem } : {}), warnings: [...warnings, ...url.warnings] };
}

function review(ctx: CheckContext, f: Findings, created: CreatedAction, webhookUrl: string): void {
  const { action, quote, response } = created;
  const at = (text: string, requirement?: string) => problemAt(f, ctx, response, text, requirement);
  const name = `the created action ${action.publicId}`;
  if (action.paymentStatus !== undefined && PAYMENT_SUCCESS.has(action.paymentStatus)) {
    at(
      `payment success invented: ${name} reports paymentStatus ${action.paymentStatus} at creation; expected PENDING until the provider has verified a payment`,
      'ACTION-NO-INVENTED-PAYMENT',
    );
  } else if (action.paymentStatus === undefined) {
    // paymentStatus is optional in the schema: its absence is ambiguous, not wrong (DECISIONS, optional fields).
    f.warn(
      `${name} omits the optional paymentStatus; an action awaiting payment has paymentStatus PENDING`,
      'ACTION-PAYMENT-STATUS-PENDING',
    );
  } else if (action.paymentStatus !== 'PENDING') {
    at(`${name} has paymentStatus ${action.paymentStatus}; expected PENDING`, 'ACTION-PAYMENT-STATUS-PENDING');
  }
  if (action.status !== 'AWAITING_PAYMENT')
    at(`${name} has status ${action.status}; expected AWAITING_PAYMENT`, 'ACTION-CREATED-AWAITING-PAYMENT');

  const next = judgeNextAction(action.nextAction, webhookUrl, name, ctx.config.local);
  for (const w of next.warnings) f.warn(w, 'ACTION-NEXT-ACTION-CHECKOUT');
  if (next.problem) at(next.problem, 'ACTION-NEXT-ACTION-CHECKOUT');

  // The action is the quoted order: "the quote is authoritative" for its amounts, lines and provider.
  const quoted = (text: string) => at(text, 'QUOTE-AUTHORITATIVE');
  if (action.subtotal !== quote.subtotal)
    quoted(`${name} has subtotal ${action.subtotal}; quote ${quote.id} says ${quote.subtotal}`);
  if (action.total !== quote.total) quoted(`${name} has total ${action.total}; quote ${quote.id} says ${quote.total}`);
  if (action.quoteId !== undefined && action.quoteId !== quote.id)
    quoted(`${name} refers to quote ${action.quoteId}; it was created from quote ${quote.id}`);
  if (action.providerSlug !== quote.providerSlug)
    quoted(`${name} names provider ${action.providerSlug}; the quote names ${quote.providerSlug}`);
  const lines = (xs: { offeringId?: string; quantity?: number }[]) =>
    xs
      .map((l) => `${l.offeringId ?? '?'}×${l.quantity ?? '?'}`)
      .sort()
      .join(', ');
  if (lines(action.lines) !== lines(quote.lines))
    f.warn(
      `${name} lines (${lines(action.lines)}) differ from the quote's (${lines(quote.lines)})`,
      'QUOTE-AUTHORITATIVE',
    );
}

export const check: CheckDefinition = {
  id: 'payment-pending',
  group: 'transactional',
  title: 'A created action awaits payment through the provider checkout',
  rule: 'Contract, States: POST /actions accepted, payment required → AWAITING_PAYMENT, "paymentStatus PENDING; nextAction carries the checkout link"; Provider route behaviour rule 2: "returns nextAction with its own checkout URL … and never invents payment success"',
  requirements: [
    'ACTION-CREATED-AWAITING-PAYMENT',
    'ACTION-PAYMENT-STATUS-PENDING',
    'ACTION-NO-INVENTED-PAYMENT',
    'ACTION-NEXT-ACTION-CHECKOUT',
    'QUOTE-AUTHORITATIVE',
    'ROUTE-ACTIONS',
    'ACTION-REQUIRED-FIELDS',
    'ACTION-STATUS-ENUM',
    'PAYMENT-STATUS-VALUES',
    'MONEY-INTEGERS',
    'TIMESTAMPS-ISO8601',
  ],
  needs: ['quote-math'],
  appliesTo: { operations: ['POST /actions'], description: 'providers with ACTION_CREATE (required in TRANSACTIONAL)' },
  async run(ctx) {
    const f = new Findings();
    let created: CreatedAction;
    try {
      created = await ctx.resources.pendingAction();
    } catch (error) {
      // The shared pending action is this check's subject: its failure is this check's failure.
      if (error instanceof PrerequisiteError && error.checkId === 'payment-pending') {
        if (error.evidence) keepEvidence(f, error.evidence);
        f.problem(`creating a test action failed: ${error.message}`, error.requirement ?? 'ROUTE-ACTIONS');
        return f.outcome('');
      }
      throw error;
    }
    const info = await ctx.resources.providerInfo();
    keepEvidence(f, created.response);
    noteRequoted(f, created.requoted);
    schemaWarnings(f, created.schemaWarnings, 'POST /actions');
    review(ctx, f, created, ctx.webhooks.urlFor(info.slug));
    const { action } = created;
    return f.outcome(
      `action ${action.publicId} is AWAITING_PAYMENT, paymentStatus PENDING, checkout ${action.nextAction?.url ?? ''}, total ${action.total} as quoted`,
    );
  },
};
