import { Findings } from './outcome.js';
import { type CreatedAction, PrerequisiteError } from './resources.js';
import { keepEvidence } from './support/evidence.js';
import { schemaWarnings } from './support/expect.js';
import { problemAt } from './support/tx.js';
import type { CheckContext, CheckDefinition } from './types.js';

/** Payment states a provider may only report after it verified a payment. */
const PAYMENT_SUCCESS = new Set(['PAID', 'AUTHORIZED']);

/** Why a checkout URL is not a provider-owned https address, or undefined when it is. */
export function checkoutUrlProblem(url: string, webhookUrl: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `nextAction.url "${url}" is not an absolute URL`;
  }
  if (parsed.protocol !== 'https:')
    return `nextAction.url ${url} is not https; the customer is sent to the provider's checkout, which must be https`;
  const core = new URL(webhookUrl);
  if (parsed.host === core.host || parsed.pathname.includes('/api/v1/')) {
    return `nextAction.url ${url} points at the service's core/webhook address; it must be the provider's own checkout`;
  }
  return undefined;
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
  if (action.status !== 'AWAITING_PAYMENT') at(`${name} has status ${action.status}; expected AWAITING_PAYMENT`);

  const next = action.nextAction;
  if (next === undefined) {
    at(
      `${name} has no nextAction; expected { type: "OPEN_URL", url: <the provider's https checkout>, label }`,
      'ACTION-NEXT-ACTION-CHECKOUT',
    );
  } else {
    if (next.type !== 'OPEN_URL')
      at(`${name} has nextAction.type ${next.type ?? '(missing)'}; expected OPEN_URL`, 'ACTION-NEXT-ACTION-CHECKOUT');
    if (typeof next.url !== 'string' || next.url === '')
      at(`${name} has no nextAction.url; expected the provider's https checkout URL`, 'ACTION-NEXT-ACTION-CHECKOUT');
    else {
      const why = checkoutUrlProblem(next.url, webhookUrl);
      if (why) at(why, 'ACTION-NEXT-ACTION-CHECKOUT');
    }
    if (typeof next.label !== 'string' || next.label.trim() === '')
      at(
        `${name} has no nextAction.label; expected a human label for the checkout link`,
        'ACTION-NEXT-ACTION-CHECKOUT',
      );
  }

  if (action.subtotal !== quote.subtotal)
    at(`${name} has subtotal ${action.subtotal}; quote ${quote.id} says ${quote.subtotal}`);
  if (action.total !== quote.total) at(`${name} has total ${action.total}; quote ${quote.id} says ${quote.total}`);
  if (action.quoteId !== undefined && action.quoteId !== quote.id)
    at(`${name} refers to quote ${action.quoteId}; it was created from quote ${quote.id}`);
  if (action.providerSlug !== quote.providerSlug)
    at(`${name} names provider ${action.providerSlug}; the quote names ${quote.providerSlug}`);
  const lines = (xs: { offeringId?: string; quantity?: number }[]) =>
    xs
      .map((l) => `${l.offeringId ?? '?'}×${l.quantity ?? '?'}`)
      .sort()
      .join(', ');
  if (lines(action.lines) !== lines(quote.lines))
    f.warn(`${name} lines (${lines(action.lines)}) differ from the quote's (${lines(quote.lines)})`);
}

export const check: CheckDefinition = {
  id: 'payment-pending',
  title: 'A created action awaits payment through the provider checkout',
  rule: 'Contract, States: POST /actions accepted, payment required → AWAITING_PAYMENT, "paymentStatus PENDING; nextAction carries the checkout link"; Provider route behaviour rule 2: "returns nextAction with its own checkout URL … and never invents payment success"',
  requirements: [
    'ACTION-CREATED-AWAITING-PAYMENT',
    'ACTION-PAYMENT-STATUS-PENDING',
    'ACTION-NO-INVENTED-PAYMENT',
    'ACTION-NEXT-ACTION-CHECKOUT',
    'ROUTE-ACTIONS',
    'ACTION-REQUIRED-FIELDS',
    'ACTION-STATUS-ENUM',
    'PAYMENT-STATUS-VALUES',
    'MONEY-INTEGERS',
  ],
  appliesTo: { operations: ['POST /actions'], description: 'providers with ACTION_CREATE (required in TRANSACTIONAL)' },
  createsOrders: true,
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
    schemaWarnings(f, created.schemaWarnings, 'POST /actions');
    review(ctx, f, created, ctx.webhooks.urlFor(info.slug));
    const { action } = created;
    return f.outcome(
      `action ${action.publicId} is AWAITING_PAYMENT, paymentStatus PENDING, checkout ${action.nextAction?.url ?? ''}, total ${action.total} as quoted`,
    );
  },
};
