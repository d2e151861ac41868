import type { HttpOutcome } from '../http/types.js';
import { eventIdentity, type ReceivedWebhook } from '../model/webhooks.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import type { ActionView } from './framework/views.js';
import { Findings, skip } from './outcome.js';
import { keepEvidence } from './support/evidence.js';
import { actionPath, noteRequoted, problemAt } from './support/tx.js';
import { waitForEvent } from './support/webhook-wait.js';

/** Payment states only a verified payment may lead to. */
const PAID = new Set(['PAID', 'AUTHORIZED']);
/** Action statuses past AWAITING_PAYMENT that a payment usually leads to (transitions are "not shown"). */
const MOVED_ON = new Set(['CONFIRMED', 'PROCESSING', 'COMPLETED']);
/**
 * How long after the click events are awaited before the action is read again. A provider that takes the click
 * as payment does so while answering it; a conforming one sends nothing, so this is waited in full (beside the
 * other checks, which run meanwhile).
 */
export const CLICK_SETTLE_MS = 2_000;

/** Transport failures where the link's host gave no answer at all: the click did not happen. */
const NOT_OPENED = new Set(['timeout', 'dns', 'refused', 'reset', 'tls', 'network', 'blocked']);

const aboutAction = (w: ReceivedWebhook, action: ActionView): boolean => {
  const id = eventIdentity(w).actionId;
  return w.verified && id !== undefined && (id === action.id || id === action.publicId);
};

/** What an event says about payment: an extra paymentStatus field of a paid value, or a status past payment. */
function eventClaim(w: ReceivedWebhook): { paid?: string; movedTo?: string } {
  const paymentStatus = w.event?.['paymentStatus'];
  const newStatus = eventIdentity(w).newStatus;
  return {
    ...(typeof paymentStatus === 'string' && PAID.has(paymentStatus) ? { paid: paymentStatus } : {}),
    ...(newStatus !== undefined && MOVED_ON.has(newStatus) ? { movedTo: newStatus } : {}),
  };
}

/** The answer to the click, in words ("HTTP 200", "a redirect 302 to …"). */
function clickAnswer(outcome: HttpOutcome): string {
  if (outcome.kind === 'response') return `HTTP ${outcome.status}`;
  return outcome.exchange.response ? `HTTP ${outcome.exchange.response.status}` : outcome.failure;
}

/** paymentStatus and status of GET /actions/{id} after the click, or why they could not be read. */
function reread(outcome: HttpOutcome): { paymentStatus?: string; status?: string } | string {
  if (outcome.kind !== 'response' || outcome.status !== 200 || outcome.bodyKind !== 'json')
    return `GET /actions/{id} gave no action to read (${clickAnswer(outcome)})`;
  const json = outcome.json as { paymentStatus?: unknown; status?: unknown };
  return {
    ...(typeof json.paymentStatus === 'string' ? { paymentStatus: json.paymentStatus } : {}),
    ...(typeof json.status === 'string' ? { status: json.status } : {}),
  };
}

type Reread = ReturnType<typeof reread>;

/** GET /actions/{id} after the click: a paid status fails; a status moved on with payment pending warns. */
function judgeReread(ctx: CheckContext, f: Findings, after: HttpOutcome, read: Reread, click: string): void {
  if (typeof read === 'string') return f.warn(`after ${click}, ${read}; only the status events were judged`);
  const what = `GET ${after.exchange.request.url}`;
  if (read.paymentStatus !== undefined && PAID.has(read.paymentStatus))
    problemAt(
      f,
      ctx,
      after,
      `${click} marked the action paid: ${what} then reports paymentStatus ${read.paymentStatus} (status ${read.status ?? '(none)'}); a click on the link is not proof of payment`,
    );
  else if (read.status !== undefined && MOVED_ON.has(read.status))
    f.warn(
      `after ${click}, ${what} reports status ${read.status} with paymentStatus ${read.paymentStatus ?? '(none)'}; a click on the link is not proof of payment: only a verified payment should move the order on`,
    );
}

/** The status events about the action: one claiming payment fails; one announcing a status moved on warns. */
function judgeEvents(ctx: CheckContext, f: Findings, action: ActionView, click: string): void {
  for (const w of ctx.webhooks.all().filter((x) => aboutAction(x, action))) {
    const claim = eventClaim(w);
    const label = `event ${eventIdentity(w).eventId ?? `#${w.seq}`}`;
    if (claim.paid !== undefined)
      f.problem(
        `${click}: ${label} then reported paymentStatus ${claim.paid} for action ${action.publicId}; a click on the link is not proof of payment`,
      );
    else if (claim.movedTo !== undefined && !f.failed)
      f.warn(
        `after ${click}, ${label} announced newStatus ${claim.movedTo} for action ${action.publicId}; a click on the link is not proof of payment: only a verified payment should move the order on`,
      );
  }
}

/** Waits for the provider to act on the click, reads the action again and judges; returns the pass message. */
async function judgeAfterClick(
  ctx: CheckContext,
  f: Findings,
  action: ActionView,
  clicked: { url: string; answer: string },
): Promise<string> {
  const click = `opening the checkout link of action ${action.publicId} (GET ${clicked.url}, answered ${clicked.answer}; no payment made)`;
  const settleMs = Math.min(CLICK_SETTLE_MS, ctx.config.webhookTimeout);
  // Ends early when an event claims payment; a conforming provider sends none, so the window is waited in full.
  await waitForEvent(ctx, (w) => aboutAction(w, action) && Object.keys(eventClaim(w)).length > 0, settleMs);
  const after = await ctx.client.send({ method: 'GET', path: actionPath(action.id) });
  keepEvidence(f, after);
  const read = reread(after);
  judgeReread(ctx, f, after, read, click);
  judgeEvents(ctx, f, action, click);
  const state =
    typeof read === 'string'
      ? 'its status events announce no payment'
      : `GET reports status ${read.status ?? '(none)'}, paymentStatus ${read.paymentStatus ?? '(none)'}`;
  return `opened the checkout link of action ${action.publicId} (GET ${clicked.url} answered ${clicked.answer}) without paying; ${settleMs} ms later ${state}: the click was not taken as payment`;
}

export const check: CheckDefinition = {
  id: 'checkout-click',
  title: 'Opening the checkout link does not mark the action paid',
  rule: 'Contract, What the service does §5: "The provider returns a checkout link in nextAction; the service sends the customer there. A click on the link is not proof of payment."; docs/decisions.md, Opening the checkout link',
  requirements: ['PAYMENT-CLICK-NOT-PROOF'],
  appliesTo: {
    operations: ['POST /actions'],
    description:
      "providers with ACTION_CREATE (required in TRANSACTIONAL) whose checkout link is on the base address's host",
  },
  dependsOn: ['payment-pending'],
  group: 'transactional',
  async run(ctx) {
    // Its own action: a provider that takes the click as payment must not change the one other checks share.
    const { action, response, requoted } = await ctx.resources.createAction('checkout-click');
    const url = action.nextAction?.type === 'OPEN_URL' ? action.nextAction.url : undefined;
    if (typeof url !== 'string' || url === '')
      return skip(
        `action ${action.publicId} has no OPEN_URL nextAction.url to open (payment-pending judges nextAction)`,
      );
    if (action.paymentStatus !== undefined && PAID.has(action.paymentStatus))
      return skip(
        `action ${action.publicId} already reports paymentStatus ${action.paymentStatus} at creation (payment-pending judges that); a click cannot be told apart`,
      );
    const f = new Findings();
    keepEvidence(f, response);
    noteRequoted(f, requoted);
    const opened = await ctx.client.send({ method: 'GET', path: url, link: url });
    if (opened.kind === 'failure' && NOT_OPENED.has(opened.failure) && !opened.exchange.response) {
      // A payment service's page, another host, or no answer: the contract leaves where checkout lives open.
      return skip(
        `the checkout link was not opened, so a click was not tested: ${opened.message}. provcert opens a provider's link only on its base address's host (docs/decisions.md, Opening the checkout link)`,
      );
    }
    keepEvidence(f, opened);
    const pass = await judgeAfterClick(ctx, f, action, { url, answer: clickAnswer(opened) });
    return f.outcome(pass);
  },
};
