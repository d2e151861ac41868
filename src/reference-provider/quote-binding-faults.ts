import { isRecord } from '../util/json.js';
import { OFFERINGS } from './catalog.js';
import type { Quote, QuoteLine } from './model.js';
import { type ResolveId, sameAsLine } from './quote-binding.js';

/*
 * The fault quote-binding-items-ignored's helpers, kept apart from the conforming binding rules (quote-binding.ts)
 * so the mutation bench, which never turns a fault on, does not mutate them.
 */

/** A line for an item the quote never priced: catalog price, no options (quote-binding-items-ignored only). */
function unquotedLine(item: unknown, resolveId: ResolveId): QuoteLine | undefined {
  if (!isRecord(item) || typeof item.offeringId !== 'string' || typeof item.quantity !== 'number') return undefined;
  const offeringId = resolveId(item.offeringId);
  const offering = OFFERINGS.find((o) => o.id === offeringId);
  if (!offering) return undefined;
  const variant = offering.variants?.find((v) => v.id === item.variantId);
  const unitPrice = variant?.basePrice ?? offering.basePrice;
  return {
    offeringId,
    offeringTitle: offering.title,
    ...(variant ? { variantId: variant.id } : {}),
    quantity: item.quantity,
    unitPrice,
    optionsTotal: 0,
    lineTotal: unitPrice * item.quantity,
    selectedOptions: [],
  };
}

/**
 * The fault quote-binding-items-ignored: the old quote authorizes the order as now asked. Items matching a
 * quoted line keep it; others get catalog-priced lines; the quote's fees and discount stay.
 */
export function linesAsAsked(items: unknown, quote: Quote, resolveId: ResolveId): Quote {
  if (!Array.isArray(items)) return quote;
  const lines = items
    .map((item) => quote.lines.find((line) => sameAsLine(item, line, resolveId)) ?? unquotedLine(item, resolveId))
    .filter((line): line is QuoteLine => line !== undefined);
  const subtotal = lines.reduce((sum, l) => sum + l.lineTotal, 0);
  return { ...quote, lines, subtotal, total: subtotal + quote.totalFees - quote.totalDiscount };
}

/**
 * The fault quote-binding-dropped-item-accepted names only the first item in manifest.certificationInput (a
 * one-item selection is allowed), so the quoted order a dropped item is probed on is not the selection itself.
 */
export const firstItemOnly = <T extends { items: readonly unknown[] }>(input: T): T => ({
  ...input,
  items: input.items.slice(0, 1),
});
