import { describeBody } from '../http/body.js';
import type { CheckOutcome, QuoteMathRow } from '../model/report.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import type { QuoteItemInput } from './framework/views.js';
import { Findings } from './outcome.js';
import { keepEvidence } from './support/evidence.js';
import { describeAnswer, schemaProblemText, schemaRequirement, schemaWarnings } from './support/expect.js';
import { checkQuoteMath, formatQuoteMathTable } from './support/quote-math.js';
import { exercisesMath } from './support/selection.js';
import { problemAt } from './support/tx.js';
import { quoteValidOrder } from './support/valid-order.js';

interface QuotedSelection {
  label: string;
  items: readonly QuoteItemInput[];
  /** Explicit RequestQuoteInput; absent = the run's selection. */
  body?: Record<string, unknown>;
  /** The provider's own certificationInput must be quoted; a selection provcert derived may meet its own bounds. */
  mustQuote: boolean;
}

/** The run's selection, plus a derived one when it does not exercise the math as DECISIONS.md asks. */
async function selectionsToQuote(ctx: CheckContext): Promise<QuotedSelection[]> {
  const [info, catalog, selection] = await Promise.all([
    ctx.resources.providerInfo(),
    ctx.resources.catalog(),
    ctx.resources.selection(),
  ]);
  const first: QuotedSelection = {
    label:
      selection.source === 'certificationInput'
        ? 'manifest.certificationInput selection'
        : 'selection derived from the catalog',
    items: selection.items,
    mustQuote: selection.source === 'certificationInput',
  };
  if (selection.source === 'catalog' || exercisesMath(selection.items, catalog)) return [first];
  const derived = await ctx.resources.derivedSelection();
  const body = {
    providerSlug: info.slug,
    ...(derived.locationId ? { locationId: derived.locationId } : {}),
    items: derived.items,
  };
  return [
    first,
    {
      label: 'selection derived from the catalog (quantity 2 with a priced option, two lines)',
      items: derived.items,
      body,
      mustQuote: false,
    },
  ];
}

export const check: CheckDefinition = {
  id: 'quote-math',
  group: 'transactional',
  title: 'Quote matches the selection and its math holds',
  rule: 'Contract, Provider route behaviour rule 1: "POST /quote recomputes totals … subtotal = sum(lines[].lineTotal); total = subtotal + totalFees - totalDiscount"; optionsTotal = priceDelta × option quantity × item quantity (RequestQuoteInput); Limits: minimum quote validity 5 seconds; docs/decisions.md, Quote math',
  requirements: [
    'QUOTE-TOTAL-FORMULA',
    'QUOTE-SUBTOTAL-SUM',
    'QUOTE-LINE-TOTAL',
    'QUOTE-OPTION-CONTRIBUTION',
    'QUOTE-FEES-SUM',
    'QUOTE-OPTIONS-ONCE',
    'QUOTE-MIN-VALIDITY',
    'QUOTE-REQUIRED-FIELDS',
    'QUOTE-MATCHES-SELECTION',
    'ROUTE-QUOTE',
    'TIMESTAMPS-ISO8601',
    'MONEY-INTEGERS',
    'ORDER-FLOW-BY-IDS',
  ],
  needs: ['catalog'],
  appliesTo: { operations: ['POST /quote'], description: 'providers with QUOTE (required in TRANSACTIONAL)' },
  async run(ctx) {
    const f = new Findings();
    const [info, catalog, selections] = await Promise.all([
      ctx.resources.providerInfo(),
      ctx.resources.catalog(),
      selectionsToQuote(ctx),
    ]);
    const answers = await Promise.all(
      selections.map(async (s) => ({ s, answer: await quoteValidOrder(() => ctx.resources.requestQuote(s.body)) })),
    );
    const rows: QuoteMathRow[] = [];
    const summaries: string[] = [];
    const many = selections.length > 1;

    let refused = 0;
    for (const { s, answer } of answers) {
      const prefix = many ? `(${s.label}) ` : '';
      const { attempt } = answer;
      const { outcome } = attempt;
      if (answer.retriedAfter)
        f.warn(
          `${prefix}POST /quote answered ${answer.retriedAfter} once; it was retried (DECISIONS: a 5xx fails only when it repeats)`,
          'ROUTE-QUOTE',
        );
      if (answer.refusal && !s.mustQuote) {
        keepEvidence(f, outcome);
        f.warn(
          `${prefix}refused a valid order: ${answer.refusal} (a provider's own bound; the contract states none)`,
          'ROUTE-QUOTE',
        );
        refused++;
        continue;
      }
      if (!attempt.quote) {
        if (attempt.schemaProblems) {
          const json = outcome.kind === 'response' ? outcome.json : undefined;
          for (const p of attempt.schemaProblems) {
            problemAt(
              f,
              ctx,
              outcome,
              `${prefix}POST /quote answer does not match NormalizedQuote: ${schemaProblemText(p, json)}`,
              schemaRequirement(p, 'QUOTE-REQUIRED-FIELDS', json),
            );
          }
        } else if (outcome.kind === 'response' && outcome.status === 200) {
          problemAt(
            f,
            ctx,
            outcome,
            `${prefix}POST /quote for the ${s.label} answered ${describeBody(outcome.bodyKind, outcome.contentType)}; expected a NormalizedQuote`,
            'ROUTE-QUOTE',
          );
        } else {
          problemAt(
            f,
            ctx,
            outcome,
            `${prefix}POST /quote for the ${s.label} answered ${describeAnswer(outcome)}; expected 200 with a NormalizedQuote`,
            'ROUTE-QUOTE',
          );
        }
        continue;
      }
      schemaWarnings(f, attempt.schemaWarnings ?? [], `${prefix}POST /quote`);
      const quote = attempt.quote;
      const result = checkQuoteMath({
        items: s.items,
        catalog,
        quote,
        sentAt: attempt.answeredAt - outcome.durationMs,
        providerSlug: info.slug,
      });
      rows.push(...result.rows.map((r) => (many ? { ...r, label: `${prefix}${r.label}` } : r)));
      result.problems.forEach((p, i) => problemAt(f, ctx, outcome, `${prefix}${p}`, result.cited[i]));
      result.warnings.forEach((w, i) => f.warn(`${prefix}${w}`, result.warned[i]));
      if (result.problems.length === 0) keepEvidence(f, outcome);
      summaries.push(
        `quote ${quote.id}: ${quote.lines.length} line(s), subtotal ${quote.subtotal}, total ${quote.total}`,
      );
    }

    if (refused === answers.length && !f.failed)
      return {
        status: 'skip',
        message: 'every selection was refused with a clear 4xx ErrorResponse, so the quote math could not be checked',
        evidence: [],
        warnings: f.outcome('').warnings ?? [],
      };
    if (rows.length > 0) f.quoteMath = rows;
    const out: CheckOutcome = f.outcome(`${summaries.join('; ')}: selection, line math, totals and validity hold`);
    if (out.status === 'fail' && rows.length > 0)
      out.details = [
        ...(out.details ?? []),
        'computation (expected beside the provider):',
        ...formatQuoteMathTable(rows),
      ];
    return out;
  },
};
