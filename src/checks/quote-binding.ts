import type { HttpOutcome } from '../http/types.js';
import { type QuotedAttempt, requoteEvidence, sendWithFreshQuote } from './framework/quote-retry.js';
import { PrerequisiteError, ProvcertTooSlowError, type Selection } from './framework/resources.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import type { QuoteItemInput, QuoteView } from './framework/views.js';
import { Findings } from './outcome.js';
import { keepEvidence } from './support/evidence.js';
import { describeAnswer, expectError } from './support/expect.js';
import { type BindingProbe, bindingProbes, itemsOf } from './support/probe-tables/binding.js';
import { isQuoteExpired } from './support/quote-expired.js';
import { cancelStray } from './support/stray-order.js';
import { actionIdentity, markReproduce, noteRequoted, problemAt, success } from './support/tx.js';

/** Any 4xx refuses the changed order: the contract names no code for it. */
const CLIENT_ERRORS = Array.from({ length: 100 }, (_, i) => 400 + i);

interface LineLike {
  offeringId?: string;
  quantity?: number;
  selectedOptions?: readonly { groupId?: string; optionId?: string }[];
}

/** offering×quantity per line, with the chosen options when `withOptions`; order-free. */
const linesText = (xs: readonly LineLike[], withOptions = false): string =>
  xs
    .map((l) => {
      const options = (l.selectedOptions ?? []).map((o) => `${o.groupId ?? '?'}/${o.optionId ?? '?'}`).sort();
      return `${l.offeringId ?? '?'}×${l.quantity ?? '?'}${withOptions ? `[${options.join(',')}]` : ''}`;
    })
    .sort()
    .join(', ');

/**
 * Whether a created action is the quoted order rather than the changed one: the same lines (with their options
 * where every action line names them) and the same total. Such an action is advice, not a broken binding.
 */
export function isQuotedOrder(
  action: { lines?: readonly LineLike[]; total?: unknown },
  quote: { lines: readonly LineLike[]; total: number },
): boolean {
  const lines = action.lines ?? [];
  if (lines.length === 0) return false;
  const withOptions = lines.every((l) => Array.isArray(l.selectedOptions));
  return linesText(lines, withOptions) === linesText(quote.lines, withOptions) && action.total === quote.total;
}

/**
 * Whether the quote shows it bound a destination: RequestQuoteInput has no destination field, so a provider
 * that ignored ours cannot have bound it, and a changed destination it accepts is then no broken binding.
 */
export function quoteBoundDestination(quote: unknown, destination: { raw: string }): boolean {
  const q = quote as { destination?: { raw?: unknown }; metadata?: { destination?: { raw?: unknown } } };
  return q.destination?.raw === destination.raw || q.metadata?.destination?.raw === destination.raw;
}

/** Quote the selection with its destination, so the destination is a term of the quote; without it when refused. */
async function bindingQuote(ctx: CheckContext, sel: Selection, f: Findings): Promise<BindingQuote> {
  const info = await ctx.resources.providerInfo();
  const body = { providerSlug: info.slug, ...(sel.locationId ? { locationId: sel.locationId } : {}), items: sel.items };
  const withDestination = { ...body, destination: sel.destination };
  const bound = await ctx.resources.requestQuote(withDestination);
  if (bound.quote)
    return {
      quote: bound.quote,
      answeredAt: bound.answeredAt,
      withDestination: true,
      requote: quoteWith(ctx, withDestination),
    };
  f.warn(
    `POST /quote with a destination was answered ${describeAnswer(bound.outcome)}; the destination probe is skipped (the quote carries no destination)`,
  );
  const requote = quoteWith(ctx, body);
  return { ...(await requote()), withDestination: false, requote };
}

interface BindingQuote {
  quote: QuoteView;
  answeredAt: number;
  withDestination: boolean;
  /** The same quote request again, for a re-quote after provcert's own delay expired the first. */
  requote: () => Promise<{ quote: QuoteView; answeredAt: number }>;
}

const quoteWith =
  (ctx: CheckContext, body: Record<string, unknown>, what = 'the certification selection') =>
  async (): Promise<{ quote: QuoteView; answeredAt: number }> => {
    const attempt = await ctx.resources.requestQuote(body);
    if (attempt.quote) return { quote: attempt.quote, answeredAt: attempt.answeredAt };
    throw new PrerequisiteError(
      'quote-math',
      `POST /quote for ${what} was answered ${describeAnswer(attempt.outcome)}`,
    );
  };

/**
 * The quote of a probe that names its own quoted order (the same location and destination as the first quote,
 * another order), or undefined with a warning when the provider refuses to quote that order: the row is then not
 * tested, never passed.
 */
async function probeQuote(
  ctx: CheckContext,
  f: Findings,
  sel: Selection,
  withDestination: boolean,
  probe: BindingProbe & { quoteItems: QuoteItemInput[] },
): Promise<{ current: CurrentQuote; requote: BindingQuote['requote'] } | undefined> {
  const info = await ctx.resources.providerInfo();
  const body = {
    providerSlug: info.slug,
    ...(sel.locationId ? { locationId: sel.locationId } : {}),
    items: probe.quoteItems,
    ...(withDestination ? { destination: sel.destination } : {}),
  };
  const what = `the selection plus ${probe.quoteItems.at(-1)?.offeringId ?? '?'} × 1`;
  const attempt = await ctx.resources.requestQuote(body);
  if (attempt.quote)
    return { current: { quote: attempt.quote, answeredAt: attempt.answeredAt }, requote: quoteWith(ctx, body, what) };
  keepEvidence(f, attempt.outcome);
  f.warn(
    `the changed-${probe.label} probe is skipped: POST /quote for ${what} (the order it leaves an item out of) was answered ${describeAnswer(attempt.outcome)}`,
    'QUOTE-BINDING',
  );
  return undefined;
}

function actionRequest(
  ctx: CheckContext,
  quote: QuoteView,
  sel: Selection,
  label: string,
  items: QuoteItemInput[],
  destination: { raw: string },
) {
  return {
    idempotencyKey: ctx.resources.idempotencyKey(`quote-binding-${label}`),
    providerSlug: quote.providerSlug,
    quoteId: quote.id,
    userConfirmed: true,
    customer: sel.customer,
    destination,
    items,
  };
}

const post = (ctx: CheckContext, json: Record<string, unknown>): Promise<HttpOutcome> =>
  ctx.client.send({ method: 'POST', path: '/actions', json });

/**
 * POST /actions with one order and the current quote, by the one rule for provcert's own delay (quote-retry.ts): a
 * QUOTE_EXPIRED it explains is sent again with a fresh quote of the same terms, each attempt under its own key.
 * Returns the attempt and the quote it ended with.
 */
async function sendQuoted(
  ctx: CheckContext,
  sel: Selection,
  current: CurrentQuote,
  requote: BindingQuote['requote'],
  order: Pick<BindingProbe, 'items' | 'destination'> & { label: string },
): Promise<{ sent: QuotedAttempt<HttpOutcome>; latest: CurrentQuote }> {
  let latest = current;
  const sent = await sendWithFreshQuote({
    clock: ctx.clock,
    first: current,
    requote: async () => (latest = await requote()),
    send: (q, attempt) =>
      post(
        ctx,
        actionRequest(
          ctx,
          q,
          sel,
          attempt === 0 ? order.label : `${order.label}-requote-${attempt}`,
          order.items,
          order.destination,
        ),
      ),
    outcomes: (o) => [o],
  });
  return { sent, latest };
}

/** The quote the probes and the unchanged order go with: the first, or a fresh one of the same terms. */
interface CurrentQuote {
  quote: QuoteView;
  answeredAt: number;
}

/**
 * A changed order with the quote must be refused; a created action is a failure unless it is exactly the quoted
 * order. A QUOTE_EXPIRED that provcert's own delay explains refuses for the wrong reason and tests no binding: the
 * probe goes again with a fresh quote of the same terms (the same rule as the unchanged order), and when every
 * attempt expired that way the check is an error, never a pass. Returns whether an action was created and the
 * quote the probe ended with.
 */
async function probeChange(
  ctx: CheckContext,
  f: Findings,
  current: CurrentQuote,
  requote: BindingQuote['requote'],
  sel: Selection,
  probe: BindingProbe,
): Promise<{ consumed: boolean; current: CurrentQuote }> {
  const { sent, latest } = await sendQuoted(ctx, sel, current, requote, {
    label: probe.label,
    items: probe.items,
    destination: probe.destination,
  }).catch((error: unknown) => {
    if (!(error instanceof ProvcertTooSlowError)) throw error;
    throw new ProvcertTooSlowError(
      `binding of the ${probe.label} was not tested (POST /actions ${probe.change}): ${error.message}`,
      error.evidence,
    );
  });
  noteRequoted(f, requoteEvidence(sent));
  const consumed = judgeChange(ctx, f, sent.quote, sel, probe, sent.result);
  // An order the probe should not have made is cancelled where the provider can.
  const stray = actionIdentity(success(sent.result)?.json).id;
  if (stray !== undefined) await cancelStray(ctx, stray);
  return { consumed, current: latest };
}

function judgeChange(
  ctx: CheckContext,
  f: Findings,
  quote: QuoteView,
  sel: Selection,
  probe: BindingProbe,
  outcome: HttpOutcome,
): boolean {
  const what = `POST /actions with quote ${quote.id} ${probe.change}`;
  const accepted = success(outcome);
  if (!accepted) {
    if (!expectError(f, outcome, { what, statuses: CLIENT_ERRORS })) markReproduce(f, ctx, outcome);
    return false;
  }
  const created = actionIdentity(accepted.json);
  if (created.id !== undefined)
    ctx.resources.noteCreatedAction({
      id: created.id,
      ...(created.publicId !== undefined ? { publicId: created.publicId } : {}),
    });
  const action = accepted.json as { lines?: LineLike[]; total?: unknown };
  const name = created.publicId ?? created.id ?? '(no id)';
  if (probe.label === 'destination' && !quoteBoundDestination(quote, sel.destination)) {
    keepEvidence(f, outcome);
    f.warn(
      `${what} was answered ${accepted.status} and created action ${name}; the quote shows no destination (RequestQuoteInput has none), so it cannot have bound one`,
      'QUOTE-FRESH-ON-CHANGE',
    );
    return true;
  }
  // A changed order answered with exactly the quoted order (lines, options, total) is not the changed one.
  if (probe.label !== 'destination' && isQuotedOrder(action, quote)) {
    keepEvidence(f, outcome);
    f.warn(
      `${what} was answered ${accepted.status} and created action ${name} for the quoted order (${linesText(quote.lines)}), not the changed one; the contract asks for a fresh quote and confirmation instead`,
      'QUOTE-FRESH-ON-CHANGE',
    );
    return true;
  }
  problemAt(
    f,
    ctx,
    outcome,
    `${what} was answered ${accepted.status} and created action ${name}; a quote cannot authorize a different order: expected a 4xx ErrorResponse and no action (request a fresh quote)`,
    probe.requirement,
  );
  return true;
}

export const check: CheckDefinition = {
  id: 'quote-binding',
  group: 'transactional',
  title: 'A quote cannot authorize a different order',
  rule: 'Contract, NormalizedQuote: "The quote is bound to the selection and fulfillment terms and cannot authorize a different order"; Provider route behaviour rule 1: when items, quantities, options or destination change, a fresh quote is needed',
  requirements: ['QUOTE-BINDING', 'QUOTE-FRESH-ON-CHANGE', 'QUOTE-MIN-VALIDITY'],
  needs: ['catalog', 'quote-math'],
  appliesTo: { operations: ['POST /actions'], description: 'providers with ACTION_CREATE (required in TRANSACTIONAL)' },
  async run(ctx) {
    const f = new Findings();
    const sel = await ctx.resources.selection();
    const first = await bindingQuote(ctx, sel, f);
    const { withDestination, requote } = first;
    const { probes, skipped } = bindingProbes(sel, await ctx.resources.catalog(), withDestination);
    for (const s of skipped)
      if (s.dimension !== 'destination')
        f.warn(`the changed-${s.dimension} probe is skipped: ${s.reason}`, 'QUOTE-BINDING');
    // One after the other: a provider may lock a quote while an action is being created from it.
    let consumed = false;
    let current: CurrentQuote = { quote: first.quote, answeredAt: first.answeredAt };
    const refused: string[] = [];
    for (const probe of probes) {
      if (probe.quoteItems) {
        // Its own quote: the probes before and after it, and the unchanged order, keep theirs.
        const own = await probeQuote(ctx, f, sel, withDestination, { ...probe, quoteItems: probe.quoteItems });
        if (!own) continue;
        await probeChange(ctx, f, own.current, own.requote, sel, probe);
        refused.push(probe.label);
        continue;
      }
      refused.push(probe.label);
      const probed = await probeChange(ctx, f, current, requote, sel, probe);
      // A fresh quote has not been used by the earlier probes.
      consumed = probed.consumed || (consumed && probed.current === current);
      current = probed.current;
    }

    // The unchanged order must still succeed, or the refusals above say nothing about binding.
    // When provcert's own delay expired the quote, the unchanged order goes with a fresh quote of the same terms.
    const { sent } = await sendQuoted(ctx, sel, current, requote, {
      label: 'unchanged',
      items: itemsOf(sel.items),
      destination: sel.destination,
    });
    noteRequoted(f, requoteEvidence(sent));
    const unchanged = sent.result;
    const used = sent.quote;
    const created = success(unchanged);
    if (!created && consumed && sent.attempt === 0) {
      keepEvidence(f, unchanged);
      f.warn(
        `POST /actions with quote ${used.id} and the unchanged order was answered ${describeAnswer(unchanged)} after a changed order had already used the quote`,
      );
    } else if (!created && isQuoteExpired(unchanged)) {
      // sendWithFreshQuote judges a QUOTE_EXPIRED only when the quote was valid as provcert measured it (answered
      // before expiresAt, or sent well before it and held): the provider cut the validity it had stated short.
      problemAt(
        f,
        ctx,
        unchanged,
        `POST /actions with quote ${used.id} and the unchanged quoted order ${sent.early ?? 'was answered QUOTE_EXPIRED while the quote was valid'} (${describeAnswer(unchanged)}; expiresAt ${String(used.expiresAt)}); the provider controls expiresAt and must honour it: expected the action to be created`,
        'QUOTE-MIN-VALIDITY',
      );
    } else if (!created) {
      problemAt(
        f,
        ctx,
        unchanged,
        `POST /actions with quote ${used.id} and the unchanged quoted order was answered ${describeAnswer(unchanged)}; expected the action to be created (the quote is valid and confirmed)`,
      );
    } else {
      const identity = actionIdentity(created.json);
      if (identity.id !== undefined)
        ctx.resources.noteCreatedAction({
          id: identity.id,
          ...(identity.publicId !== undefined ? { publicId: identity.publicId } : {}),
        });
    }
    return f.outcome(
      `quote ${current.quote.id} refused a changed ${refused.join(', ')} and created the unchanged order`,
    );
  },
};
