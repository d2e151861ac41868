import type { QuoteItemInput, QuoteLineView } from '../framework/views.js';

/**
 * Pairing requested items with quote lines (DECISIONS.md, Exploration): by offeringId, variantId and options,
 * in any order; a line's selectedOptions may come in any order. One implementation, used by quote-math and
 * quote-explore alike.
 */

export interface LinePair {
  item: QuoteItemInput;
  itemIndex: number;
  line: QuoteLineView;
  lineIndex: number;
}

export interface LineMatch {
  pairs: LinePair[];
  unmatchedItems: { item: QuoteItemInput; itemIndex: number }[];
  unmatchedLines: { line: QuoteLineView; lineIndex: number }[];
}

export const optionKey = (groupId: string | undefined, optionId: string | undefined): string =>
  `${groupId ?? '?'}/${optionId ?? '?'}`;

/** The options of an item or line as an order-free key ("g/o×2,g/p×1"); `withQuantity` adds each quantity. */
function optionSetKey(
  options: readonly { groupId?: string; optionId?: string; quantity?: number }[] | undefined,
  withQuantity: boolean,
): string {
  return (options ?? [])
    .map((o) => `${optionKey(o.groupId, o.optionId)}${withQuantity ? `×${o.quantity ?? 1}` : ''}`)
    .sort()
    .join(',');
}

type Level = (item: QuoteItemInput, line: QuoteLineView) => boolean;

const sameOffering: Level = (item, line) => line.offeringId === item.offeringId;
const sameVariant: Level = (item, line) =>
  sameOffering(item, line) && (item.variantId === undefined || line.variantId === item.variantId);
/** A line that does not list its options can only be told apart by offering, variant and quantity. */
const sameOptions: Level = (item, line) =>
  sameVariant(item, line) &&
  (line.selectedOptions === undefined ||
    optionSetKey(line.selectedOptions, false) === optionSetKey(item.selectedOptions, false));
const sameEverything: Level = (item, line) =>
  sameOptions(item, line) &&
  line.quantity === item.quantity &&
  (line.selectedOptions === undefined ||
    line.selectedOptions.every((o) => o.quantity === undefined) ||
    optionSetKey(line.selectedOptions, true) === optionSetKey(item.selectedOptions, true));

/** From the strictest likeness to the loosest: an item takes the line most like it, whatever its position. */
const LEVELS: readonly Level[] = [sameEverything, sameOptions, sameVariant, sameOffering];

/**
 * Pair each requested item with one quote line. Each pass of LEVELS pairs the items still unpaired with the first
 * unused line alike at that level, so two lines of one offering returned in another order still pair with their
 * own items. Unpaired items (merged or dropped) and lines (a silent substitution) are returned for reporting.
 */
export function matchLines(items: readonly QuoteItemInput[], lines: readonly QuoteLineView[]): LineMatch {
  const usedLines = new Set<number>();
  const lineOf = new Map<number, number>();
  for (const alike of LEVELS) {
    items.forEach((item, itemIndex) => {
      if (lineOf.has(itemIndex)) return;
      const lineIndex = lines.findIndex((line, idx) => !usedLines.has(idx) && alike(item, line));
      if (lineIndex < 0) return;
      usedLines.add(lineIndex);
      lineOf.set(itemIndex, lineIndex);
    });
  }
  const pairs: LinePair[] = [];
  const unmatchedItems: LineMatch['unmatchedItems'] = [];
  items.forEach((item, itemIndex) => {
    const lineIndex = lineOf.get(itemIndex);
    const line = lineIndex === undefined ? undefined : lines[lineIndex];
    if (lineIndex === undefined || line === undefined) unmatchedItems.push({ item, itemIndex });
    else pairs.push({ item, itemIndex, line, lineIndex });
  });
  const unmatchedLines = lines
    .map((line, lineIndex) => ({ line, lineIndex }))
    .filter(({ lineIndex }) => !usedLines.has(lineIndex));
  return { pairs, unmatchedItems, unmatchedLines };
}
