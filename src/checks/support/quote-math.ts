import { parseIsoTimestamp } from '../../contract/timestamp.js';
import { MIN_QUOTE_VALIDITY_MS } from '../../model/contract-constants.js';
import type { RequirementId } from '../../model/findings.js';
import type { QuoteMathRow } from '../../model/report.js';
import type { CatalogView, OfferingView, QuoteItemInput, QuoteLineView, QuoteView } from '../framework/views.js';
import { matchLines, optionKey } from './line-match.js';

/**
 * Allowance for clock differences and whole-second timestamps when judging `expiresAt`: the validity is
 * measured from when the request was SENT, so the provider's processing time already counts in its favour.
 */
const EXPIRY_CLOCK_ALLOWANCE_MS = 500;

export interface QuoteMathInput {
  /** The items that were asked for (RequestQuoteInput.items). */
  items: readonly QuoteItemInput[];
  catalog: CatalogView;
  quote: QuoteView;
  /** Clock ms (epoch) when the POST /quote was sent. */
  sentAt: number;
  /** The provider's slug (GET /provider-info); the quote must name the same provider. */
  providerSlug?: string;
}

export interface QuoteMathResult {
  rows: QuoteMathRow[];
  problems: string[];
  /** The requirement each problem stands on: `cited[i]` is that of `problems[i]`. */
  cited: RequirementId[];
  warnings: string[];
  /** The requirement each warning stands on: `warned[i]` is that of `warnings[i]`. */
  warned: RequirementId[];
}

function fail(result: QuoteMathResult, text: string, requirement: RequirementId): void {
  result.problems.push(text);
  result.cited.push(requirement);
}

function warn(result: QuoteMathResult, text: string, requirement: RequirementId): void {
  result.warnings.push(text);
  result.warned.push(requirement);
}

type LineOption = NonNullable<QuoteLineView['selectedOptions']>[number];

const num = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const describeItem = (item: QuoteItemInput): string =>
  `offering ${item.offeringId}${item.variantId ? ` (variant ${item.variantId})` : ''} × ${item.quantity}`;

/** Does the quote describe what was selected (offerings, variants, quantities, options)? */
export function selectionProblems(
  items: readonly QuoteItemInput[],
  quote: QuoteView,
): { problems: string[]; warnings: string[] } {
  const problems: string[] = [];
  const warnings: string[] = [];
  const { pairs, unmatchedItems, unmatchedLines } = matchLines(items, quote.lines);
  for (const { item } of unmatchedItems) problems.push(`the quote has no line for the selected ${describeItem(item)}`);
  for (const { line, lineIndex } of unmatchedLines) {
    problems.push(
      `quote line ${lineIndex + 1} names offering ${line.offeringId ?? '(none)'}, which was not selected (a substitute must be an explicit error or alternative, never silent)`,
    );
  }
  for (const { item, line, lineIndex } of pairs) {
    const n = lineIndex + 1;
    // A line without its quantity is not checked here (issue: an omitted field skips its row with a note).
    if (line.quantity !== undefined && line.quantity !== item.quantity)
      problems.push(
        `quote line ${n} (offering ${item.offeringId}) has quantity ${String(line.quantity)}; ${item.quantity} was selected`,
      );
    if (item.variantId !== undefined && line.variantId !== item.variantId) {
      problems.push(
        `quote line ${n} (offering ${item.offeringId}) has variant ${line.variantId ?? '(none)'}; variant ${item.variantId} was selected`,
      );
    }
    const asked = new Set((item.selectedOptions ?? []).map((o) => optionKey(o.groupId, o.optionId)));
    if (line.selectedOptions === undefined) {
      if (asked.size > 0)
        warnings.push(
          `quote line ${n} does not list its selectedOptions, so the options could not be compared with the selection`,
        );
      continue;
    }
    const got = new Set(line.selectedOptions.map((o) => optionKey(o.groupId, o.optionId)));
    const missing = [...asked].filter((k) => !got.has(k));
    const extra = [...got].filter((k) => !asked.has(k));
    if (missing.length > 0)
      problems.push(`quote line ${n} (offering ${item.offeringId}) lacks the selected option(s) ${missing.join(', ')}`);
    if (extra.length > 0)
      problems.push(
        `quote line ${n} (offering ${item.offeringId}) carries option(s) ${extra.join(', ')} that were not selected`,
      );
    for (const o of line.selectedOptions) {
      const wanted = item.selectedOptions?.find((s) => s.groupId === o.groupId && s.optionId === o.optionId);
      if (wanted === undefined || o.quantity === undefined || o.quantity === (wanted.quantity ?? 1)) continue;
      problems.push(
        `quote line ${n} (offering ${item.offeringId}) has option ${optionKey(o.groupId, o.optionId)} × ${String(o.quantity)}; × ${wanted.quantity ?? 1} was selected`,
      );
    }
  }
  return { problems, warnings };
}

function catalogOption(offering: OfferingView | undefined, groupId: string | undefined, optionId: string | undefined) {
  return offering?.optionGroups?.find((g) => g.id === groupId)?.options?.find((o) => o.id === optionId);
}

function catalogUnitPrice(offering: OfferingView, variantId: string | undefined): number | undefined {
  if (variantId === undefined) return offering.basePrice;
  return offering.variants?.find((v) => v.id === variantId)?.basePrice;
}

interface LineContext {
  line: QuoteLineView;
  n: number;
  item: QuoteItemInput | undefined;
  offering: OfferingView | undefined;
}

/** The options that count for a line: as the quote lists them, else as they were asked. */
function lineOptions(
  ctx: LineContext,
): { groupId?: string; optionId?: string; priceDelta?: number; quantity: number }[] {
  const askedQuantity = (o: { groupId?: string; optionId?: string }): number | undefined =>
    ctx.item?.selectedOptions?.find((s) => s.groupId === o.groupId && s.optionId === o.optionId)?.quantity;
  const fromQuote = (o: LineOption) => ({
    ...o,
    quantity: num(o.quantity) ? o.quantity : (askedQuantity(o) ?? 1),
  });
  if (ctx.line.selectedOptions !== undefined) return ctx.line.selectedOptions.map(fromQuote);
  return (ctx.item?.selectedOptions ?? []).map((o) => ({
    groupId: o.groupId,
    optionId: o.optionId,
    quantity: o.quantity ?? 1,
  }));
}

/** A row that cannot be computed because the provider omitted a figure: skipped, with a note (never a failure). */
function skipRow(result: QuoteMathResult, text: string, requirement: RequirementId): void {
  warn(result, `not checked: ${text}`, requirement);
}

/** The line's expected optionsTotal, or undefined when an option has no priceDelta anywhere (noted). */
function expectedOptions(
  ctx: LineContext,
  quantity: number,
  result: QuoteMathResult,
): { expected: number; formula: string } | undefined {
  const { n, offering } = ctx;
  const terms: { delta: number; qty: number }[] = [];
  for (const o of lineOptions(ctx)) {
    const listed = catalogOption(offering, o.groupId, o.optionId)?.priceDelta;
    const delta = num(o.priceDelta) ? o.priceDelta : listed;
    if (!num(delta)) {
      skipRow(
        result,
        `line ${n} optionsTotal (option ${optionKey(o.groupId, o.optionId)} has no priceDelta in the quote or the catalog)`,
        'QUOTE-OPTION-CONTRIBUTION',
      );
      return undefined;
    }
    if (num(listed) && listed !== delta)
      warn(
        result,
        `quote line ${n} option ${optionKey(o.groupId, o.optionId)} priceDelta ${delta} differs from the catalog's ${listed} (warning only)`,
        'QUOTE-OPTION-CONTRIBUTION',
      );
    terms.push({ delta, qty: o.quantity });
  }
  return {
    expected: sum(terms.map((t) => t.delta * t.qty * quantity)),
    formula:
      terms.length === 0 ? '0 (no options)' : terms.map((t) => `${t.delta} × ${t.qty} × ${quantity}`).join(' + '),
  };
}

/**
 * The line's rows (optionsTotal, lineTotal). A figure the provider omitted skips the rows that need it, with a note;
 * a missing optionsTotal is replaced by its expected value so a correct lineTotal still passes. Returns what the
 * line stands for in the subtotal (its lineTotal, else the expected one), or undefined when neither is known.
 */
function lineRows(ctx: LineContext, result: QuoteMathResult): number | undefined {
  const { line, n, offering } = ctx;
  const label = (field: string) => `line ${n} ${field}`;
  const quantity = line.quantity;
  const given = num(line.lineTotal) ? line.lineTotal : undefined;
  if (given === undefined) skipRow(result, `line ${n} lineTotal (the quote omits it)`, 'QUOTE-LINE-TOTAL');
  if (!num(quantity)) {
    skipRow(result, `line ${n} optionsTotal and lineTotal (the quote omits the line's quantity)`, 'QUOTE-LINE-TOTAL');
    return given;
  }
  if (offering && num(line.unitPrice)) {
    const listed = catalogUnitPrice(offering, line.variantId);
    if (num(listed) && listed !== line.unitPrice) {
      warn(
        result,
        `quote line ${n} unitPrice ${line.unitPrice} differs from the catalog price ${listed} (the quote is authoritative; a warning, not a failure)`,
        'QUOTE-LINE-TOTAL',
      );
    }
  }
  const options = expectedOptions(ctx, quantity, result);
  if (options !== undefined && num(line.optionsTotal))
    addRow(
      result,
      { label: label('optionsTotal'), formula: options.formula, expected: options.expected, actual: line.optionsTotal },
      'priceDelta × option quantity × item quantity',
      'QUOTE-OPTION-CONTRIBUTION',
    );
  else if (!num(line.optionsTotal))
    skipRow(result, `line ${n} optionsTotal (the quote omits it)`, 'QUOTE-OPTION-CONTRIBUTION');
  const optionsTotal = num(line.optionsTotal) ? line.optionsTotal : options?.expected;
  if (!num(line.unitPrice)) {
    skipRow(result, `line ${n} lineTotal (the quote omits the line's unitPrice)`, 'QUOTE-LINE-TOTAL');
    return given;
  }
  if (optionsTotal === undefined) return given;
  const expected = line.unitPrice * quantity + optionsTotal;
  if (given !== undefined)
    addRow(
      result,
      {
        label: label('lineTotal'),
        formula: `${line.unitPrice} × ${quantity} + ${optionsTotal}`,
        expected,
        actual: given,
      },
      'unitPrice × quantity + optionsTotal',
      'QUOTE-LINE-TOTAL',
    );
  return given ?? expected;
}

function addRow(
  result: QuoteMathResult,
  row: Omit<QuoteMathRow, 'ok'>,
  meaning: string,
  requirement: RequirementId,
): void {
  const ok = row.actual === row.expected;
  result.rows.push({ ...row, ok });
  if (ok) return;
  const found = row.actual === null ? 'missing' : String(row.actual);
  fail(result, `${row.label} is ${found}; expected ${row.expected} = ${row.formula} (${meaning})`, requirement);
}

/** Fees named like these are separate charges even when their amount happens to equal the options' sum. */
const SEPARATE_FEE = /deliver|service|small.?order|packag|bag|tax|vat|tip|platform|booking/i;

/** A fee name that says it charges options (or add-ons): evidence, beside an equal amount, of a second charge. */
const OPTION_FEE = /\boptions?\b|\badd-?ons?\b|\bextras?\b|\btoppings?\b|\bmodifiers?\b/i;

/**
 * "Option contributions are included once in optionsTotal and lineTotal, never again in fees". It fails only on
 * real evidence: a fee that names a selected option, or whose amount is exactly the options' contribution (all
 * lines, or one line) and whose name says it charges options. An equal amount alone may be chance: a delivery or
 * service fee is taken as such, and any other name (a "Shipping" fee of 200 beside a 200 option) is a warning.
 */
function optionsChargedAgain(quote: QuoteView, result: QuoteMathResult): void {
  const perLine = quote.lines.map((l) => (num(l.optionsTotal) ? l.optionsTotal : 0)).filter((t) => t > 0);
  const all = sum(perLine);
  const optionNames = quote.lines.flatMap((l) =>
    (l.selectedOptions ?? []).map((o) => o.name?.trim().toLowerCase()).filter((n): n is string => !!n),
  );
  for (const fee of quote.fees ?? []) {
    const name = typeof fee.name === 'string' ? fee.name : '';
    const lower = name.trim().toLowerCase();
    const sameAmount = all > 0 && num(fee.amount) && (fee.amount === all || perLine.includes(fee.amount));
    const namedOption = optionNames.find((o) => lower === o || (o.length >= 4 && lower.includes(o)));
    const contribution = `equals the options' contribution (${perLine.join(' + ')})`;
    const chargedAgain = (why: string): void =>
      fail(
        result,
        `fee "${name}" (${String(fee.amount)}) ${why}: option contributions are included once in optionsTotal and lineTotal, never again in fees`,
        'QUOTE-OPTIONS-ONCE',
      );
    if (namedOption !== undefined) chargedAgain(`names a selected option ("${namedOption}")`);
    else if (sameAmount && OPTION_FEE.test(name)) chargedAgain(`${contribution} and its name says it charges options`);
    else if (sameAmount && !SEPARATE_FEE.test(name))
      warn(
        result,
        `fee "${name}" (${String(fee.amount)}) ${contribution}; nothing else says it charges the options again, so it is taken as a separate charge`,
        'QUOTE-OPTIONS-ONCE',
      );
  }
}

function totalsRows(quote: QuoteView, lineValues: readonly (number | undefined)[], result: QuoteMathResult): void {
  const lineTotals = lineValues.filter(num);
  if (lineTotals.length < lineValues.length)
    skipRow(result, 'subtotal (a line has neither a lineTotal nor the figures to compute one)', 'QUOTE-SUBTOTAL-SUM');
  else
    addRow(
      result,
      {
        label: 'subtotal',
        formula: lineTotals.length === 0 ? '0 (no lines)' : lineTotals.join(' + '),
        expected: sum(lineTotals),
        actual: quote.subtotal,
      },
      'Σ lineTotal',
      'QUOTE-SUBTOTAL-SUM',
    );

  const feeAmounts = quote.fees?.map((fee) => (num(fee.amount) ? fee.amount : 0));
  if (feeAmounts !== undefined && num(quote.totalFees)) {
    addRow(
      result,
      {
        label: 'totalFees',
        formula: feeAmounts.length === 0 ? '0 (no fees)' : feeAmounts.join(' + '),
        expected: sum(feeAmounts),
        actual: quote.totalFees,
      },
      'Σ fees[].amount',
      'QUOTE-FEES-SUM',
    );
  }
  const fees = num(quote.totalFees) ? quote.totalFees : feeAmounts ? sum(feeAmounts) : 0;
  const discount = num(quote.totalDiscount) ? quote.totalDiscount : 0;
  addRow(
    result,
    {
      label: 'total',
      formula: `${quote.subtotal} + ${fees} − ${discount}`,
      expected: quote.subtotal + fees - discount,
      actual: quote.total,
    },
    'subtotal + totalFees − totalDiscount',
    'QUOTE-TOTAL-FORMULA',
  );
  optionsChargedAgain(quote, result);
}

function expiryRow(quote: QuoteView, sentAt: number, result: QuoteMathResult): void {
  const parsed = parseIsoTimestamp(quote.expiresAt);
  if (parsed === undefined) {
    fail(result, `expiresAt "${quote.expiresAt}" is not a valid ISO 8601 timestamp`, 'TIMESTAMPS-ISO8601');
    return;
  }
  const expiresAt = parsed.epochMs;
  const validity = expiresAt - sentAt;
  const ok = validity >= MIN_QUOTE_VALIDITY_MS - EXPIRY_CLOCK_ALLOWANCE_MS;
  result.rows.push({
    label: 'validity (ms, minimum)',
    formula: `expiresAt ${quote.expiresAt} − sent ${new Date(sentAt).toISOString()} ≥ ${MIN_QUOTE_VALIDITY_MS}`,
    expected: MIN_QUOTE_VALIDITY_MS,
    actual: validity,
    ok,
  });
  if (!ok) {
    fail(
      result,
      `expiresAt ${quote.expiresAt} is only ${(validity / 1000).toFixed(1)} s after the request; the minimum quote validity is ${MIN_QUOTE_VALIDITY_MS / 1000} s (allowance ${EXPIRY_CLOCK_ALLOWANCE_MS} ms for clock differences)`,
      'QUOTE-MIN-VALIDITY',
    );
  }
}

/**
 * The quote-math rules of DECISIONS.md: the quote matches the selection; line by line optionsTotal and
 * lineTotal, then subtotal, totalFees and total hold; expiresAt leaves at least 5 s. Each relation is
 * checked with the provider's own numbers for its inputs, so one wrong figure gives one finding.
 */
export function checkQuoteMath(input: QuoteMathInput): QuoteMathResult {
  const { quote, catalog, items } = input;
  const selection = selectionProblems(items, quote);
  // "quote matches selection" (contract, provider route behaviour rule 5).
  const result: QuoteMathResult = { rows: [], problems: [], cited: [], warnings: [], warned: [] };
  for (const w of selection.warnings) warn(result, w, 'QUOTE-MATCHES-SELECTION');
  for (const p of selection.problems) fail(result, p, 'QUOTE-MATCHES-SELECTION');
  if (input.providerSlug !== undefined && quote.providerSlug !== input.providerSlug) {
    fail(
      result,
      `the quote names provider ${quote.providerSlug}; GET /provider-info says ${input.providerSlug}`,
      'QUOTE-REQUIRED-FIELDS',
    );
  }
  const offerings = new Map(catalog.offerings.map((o) => [o.id, o]));
  quote.lines.forEach((line, index) => {
    const named =
      line.offeringId === undefined || offerings.has(line.offeringId)
        ? undefined
        : catalog.offerings.find((o) => o.title === line.offeringId);
    if (named)
      fail(
        result,
        `quote line ${index + 1} names its offering "${line.offeringId}", the display title of ${named.id}; the order flow uses ids, not display names`,
        'ORDER-FLOW-BY-IDS',
      );
  });
  const { pairs } = matchLines(items, quote.lines);
  const lineValues = quote.lines.map((line, index) => {
    const item = pairs.find((p) => p.lineIndex === index)?.item;
    return lineRows(
      {
        line,
        n: index + 1,
        item,
        offering: line.offeringId === undefined ? undefined : offerings.get(line.offeringId),
      },
      result,
    );
  });
  totalsRows(quote, lineValues, result);
  expiryRow(quote, input.sentAt, result);
  return result;
}

/** A compact text table of the rows, for failure details (reporters may render `quoteMath` richer). */
export function formatQuoteMathTable(rows: readonly QuoteMathRow[]): string[] {
  const width = Math.max(0, ...rows.map((r) => r.label.length));
  return rows.map(
    (r) =>
      `${r.ok ? '✓' : '✗'} ${r.label.padEnd(width)}  expected ${r.expected} (${r.formula}), provider ${r.actual === null ? 'missing' : r.actual}`,
  );
}
