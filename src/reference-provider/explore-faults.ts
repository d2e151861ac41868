import { isRecord } from '../util/json.js';
import { LOCATIONS, OFFERINGS } from './catalog.js';
import type { ActiveFaults } from './faults.js';
import type { Location, Offering, OptionGroup, QuoteLine, QuoteSelectedOption } from './model.js';

/**
 * The quote-explore faults (src/reference-provider/faults.ts, issue 19): each breaks an order that
 * manifest.certificationInput does not make, so quote-math still passes and only exploration can catch it.
 */

/** The second active location the explore-second-location-total fault lists (its quotes' total is wrong). */
export const AIRPORT_LOCATION: Location = {
  ...(LOCATIONS[0] as Location),
  id: 'loc-airport',
  providerLocationId: 'DK-AP-03',
  name: 'Demo Kitchen Airport',
  address: '1 Terminal Road, Sandbox City',
};

/** An option group of any offering (explore-foreign-option-accepted looks beyond the offering's own groups). */
export function foreignGroup(groupId: string, faults: ActiveFaults): OptionGroup | undefined {
  if (!faults.has('explore-foreign-option-accepted')) return undefined;
  return OFFERINGS.flatMap((o: Offering) => o.optionGroups ?? []).find((g) => g.id === groupId);
}

/** Why a valid count of selections is refused under an explore fault, or undefined. */
export function refusedCount(group: OptionGroup, count: number, faults: ActiveFaults): string | undefined {
  if (faults.has('explore-max-selections-refused') && group.maxSelections >= 2 && count === group.maxSelections)
    return `option group "${group.id}" allows fewer than ${group.maxSelections} selections`;
  if (faults.has('explore-min-selections-refused') && !group.isRequired && group.minSelections === 0 && count === 0)
    return `option group "${group.id}" needs a choice`;
  return undefined;
}

/** How far above maxSelections a count is still accepted (explore-above-max-accepted: one too late). */
export const maxSlack = (faults: ActiveFaults): number => (faults.has('explore-above-max-accepted') ? 1 : 0);

/** The default option a missing required group is silently filled with (explore-required-default-filled). */
export function silentDefault(group: OptionGroup, faults: ActiveFaults): QuoteSelectedOption | undefined {
  if (!faults.has('explore-required-default-filled') || !group.isRequired) return undefined;
  const option = group.options.find((o) => o.isDefault) ?? group.options[0];
  return option
    ? { groupId: group.id, optionId: option.id, name: option.name, priceDelta: option.priceDelta, quantity: 1 }
    : undefined;
}

/** What one option adds to optionsTotal under the explore faults (DECISIONS: priceDelta × quantity × item quantity). */
export function optionCharge(
  option: QuoteSelectedOption,
  earlier: readonly QuoteSelectedOption[],
  itemQuantity: number,
  faults: ActiveFaults,
): number {
  if (faults.has('explore-group-second-option-free') && earlier.some((o) => o.groupId === option.groupId)) return 0;
  const quantity = faults.has('explore-option-quantity-ignored') ? 1 : option.quantity;
  const stale = faults.has('explore-stale-option-price') && option.optionId.endsWith('-top-mozzarella');
  return (stale ? 150 : option.priceDelta) * quantity * itemQuantity;
}

/** A negative quantity is let through (explore-negative-quantity-accepted); 0 is still refused. */
export const negativeAccepted = (quantity: unknown, faults: ActiveFaults): boolean =>
  faults.has('explore-negative-quantity-accepted') &&
  typeof quantity === 'number' &&
  Number.isInteger(quantity) &&
  quantity < 0;

/** The fault quote-null-item-crashes: an item that is not an object is read as one, and the read throws (HTTP 500). */
export const nullItemCrashes = (body: unknown, faults: ActiveFaults): boolean =>
  faults.has('quote-null-item-crashes') &&
  isRecord(body) &&
  Array.isArray(body['items']) &&
  body['items'].some((item) => !isRecord(item));

/** The fault quote-invalid-json-crashes: a body that is not JSON, or none, is parsed without a guard and throws (HTTP 500). */
export const unparsedBodyCrashes = (rawBody: Buffer, faults: ActiveFaults): boolean => {
  if (!faults.has('quote-invalid-json-crashes')) return false;
  try {
    JSON.parse(rawBody.toString('utf8'));
    return false;
  } catch {
    return true;
  }
};

/** The fault option-quantity-unchecked: any integer option quantity is priced, -1 included. */
export const optionQuantityAccepted = (quantity: unknown, faults: ActiveFaults): quantity is number =>
  faults.has('option-quantity-unchecked') && typeof quantity === 'number' && Number.isInteger(quantity);

/** The unit price lineTotal is computed with (explore-variant-line-total, explore-large-quantity-capped). */
export function chargedBase(
  offering: Offering,
  variantId: unknown,
  unitPrice: number,
  quantity: number,
  faults: ActiveFaults,
): number {
  const [first, second] = offering.variants ?? [];
  const price =
    faults.has('explore-variant-line-total') && first && second && variantId === first.id
      ? second.basePrice
      : unitPrice;
  const charged = faults.has('explore-large-quantity-capped') && quantity >= 10 ? 9 : quantity;
  return price * charged;
}

/** The lines as quoted: a cart of three or more loses its tail; two lines of one offering are merged. */
export function quotedLines(lines: QuoteLine[], faults: ActiveFaults): QuoteLine[] {
  let out = lines;
  if (faults.has('explore-cart-lines-dropped') && out.length >= 3) out = out.slice(0, 2);
  if (!faults.has('explore-same-offering-merged')) return out;
  const merged: QuoteLine[] = [];
  for (const line of out) {
    const index = merged.findIndex((m) => m.offeringId === line.offeringId);
    const into = merged[index];
    if (!into) {
      merged.push(line);
      continue;
    }
    const quantity = into.quantity + line.quantity;
    const optionsTotal = into.selectedOptions.reduce((sum, o) => sum + o.priceDelta * o.quantity * quantity, 0);
    merged[index] = { ...into, quantity, optionsTotal, lineTotal: into.unitPrice * quantity + optionsTotal };
  }
  return merged;
}

/** A fee that fees[] lists but totalFees leaves out (explore-large-order-fee-unsummed, subtotal above 100.00). */
export const unsummedFees = (subtotal: number, faults: ActiveFaults): { name: string; amount: number }[] =>
  faults.has('explore-large-order-fee-unsummed') && subtotal > 10_000 ? [{ name: 'Large order fee', amount: 500 }] : [];

/** What a quote at this location adds to its total by mistake (explore-second-location-total). */
export const locationSurcharge = (locationId: string, faults: ActiveFaults): number =>
  faults.has('explore-second-location-total') && locationId === AIRPORT_LOCATION.id ? 100 : 0;

/** What subtotal adds up (explore-subtotal-third-line-missing leaves a third line out). */
export const subtotalOf = (lines: readonly QuoteLine[], faults: ActiveFaults): number =>
  lines.reduce(
    (sum, l, i) => (i === 2 && faults.has('explore-subtotal-third-line-missing') ? sum : sum + l.lineTotal),
    0,
  );

/** A fee charging a line's toppings again (explore-toppings-fee: two or more toppings on one line). */
export function toppingsFees(lines: readonly QuoteLine[], faults: ActiveFaults): { name: string; amount: number }[] {
  if (!faults.has('explore-toppings-fee')) return [];
  const line = lines.find((l) => l.selectedOptions.filter((o) => o.groupId.endsWith('-toppings')).length >= 2);
  return line ? [{ name: 'Extra toppings', amount: line.optionsTotal }] : [];
}

const itemsOf = (input: unknown): { offeringId?: unknown }[] =>
  typeof input === 'object' && input !== null && Array.isArray((input as { items?: unknown }).items)
    ? (input as { items: { offeringId?: unknown }[] }).items
    : [];

/** A shorter validity for large carts (explore-large-cart-short-validity: four items or more, 2 s). */
export const validityFor = (input: unknown, ttlMs: number, faults: ActiveFaults): number =>
  faults.has('explore-large-cart-short-validity') && itemsOf(input).length >= 4 ? 2_000 : ttlMs;

/** Whether the quote loses its id (explore-repeat-offering-no-id: the same offering twice in one cart). */
export function dropsQuoteId(input: unknown, faults: ActiveFaults): boolean {
  if (!faults.has('explore-repeat-offering-no-id')) return false;
  const ids = itemsOf(input).map((i) => i.offeringId);
  return new Set(ids).size < ids.length;
}

/** The error code of a refused quote (explore-unknown-option-code: OPTION_NOT_FOUND for an unknown option). */
export const refusalCode = (error: string, faults: ActiveFaults): string =>
  faults.has('explore-unknown-option-code') && error.includes('unknown option "')
    ? 'OPTION_NOT_FOUND'
    : 'INVALID_ARGUMENT';

/** Whether the cart answers 500 (explore-large-cart-error: five items or more, every time). */
export const cartErrors = (input: unknown, faults: ActiveFaults): boolean =>
  faults.has('explore-large-cart-error') &&
  typeof input === 'object' &&
  input !== null &&
  Array.isArray((input as { items?: unknown }).items) &&
  (input as { items: unknown[] }).items.length >= 5;
