import type * as FastCheck from 'fast-check';
import type { QuoteItemInput, SelectedOptionInput } from '../../framework/views.js';
import type { ExploreModel, ModelGroup, ModelOffering } from './catalog-model.js';

/**
 * Generated valid orders (issue 19 item 3), as fast-check arbitraries: fast-check draws them from a seed and
 * shrinks a failing one towards fewer items, smaller quantities and fewer options. Pure; no request is sent here.
 */

type FC = typeof FastCheck;
let loading: Promise<FC> | undefined;
/**
 * fast-check, loaded once, when orders are first generated: the check registry imports this module, so a static
 * import would load fast-check into every command that lists checks (`list`, `--help`), not only a run exploring.
 */
const fastCheck = (): Promise<FC> => (loading ??= import('fast-check'));

export interface Order {
  locationId?: string;
  items: QuoteItemInput[];
}

/** Most items in one generated cart, and the largest item quantity (large enough to cross order-size thresholds). */
export const MAX_CART_ITEMS = 6;
export const MAX_ITEM_QUANTITY = 40;
const MAX_OPTION_QUANTITY = 4;

/**
 * One group's selection: any count from minSelections to maxSelections, several options of one group included. It
 * shrinks towards minSelections; each end is also quoted on its own as a boundary case (refusals.ts).
 */
function groupArbitrary(fc: FC, group: ModelGroup): FastCheck.Arbitrary<SelectedOptionInput[]> {
  const ids = fc.subarray(group.options, { minLength: group.min, maxLength: group.max });
  return ids.chain((chosen) =>
    fc.tuple(
      ...chosen.map((optionId) =>
        fc
          .option(fc.integer({ min: 2, max: MAX_OPTION_QUANTITY }), { nil: undefined, freq: 3 })
          .map((quantity): SelectedOptionInput => ({ groupId: group.id, optionId, ...(quantity ? { quantity } : {}) })),
      ),
    ),
  );
}

/** Mostly small quantities, sometimes large ones. */
const quantityArbitrary = (fc: FC): FastCheck.Arbitrary<number> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 3 }) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: MAX_ITEM_QUANTITY }) },
  );

function itemArbitrary(fc: FC, offering: ModelOffering): FastCheck.Arbitrary<QuoteItemInput> {
  const variant = offering.variants.length > 0 ? fc.constantFrom(...offering.variants) : fc.constant(undefined);
  return fc
    .record({
      variantId: variant,
      quantity: quantityArbitrary(fc),
      groups: fc.tuple(...offering.groups.map((group) => groupArbitrary(fc, group))),
    })
    .map(({ variantId, quantity, groups }) => ({
      offeringId: offering.id,
      ...(variantId !== undefined ? { variantId } : {}),
      quantity,
      selectedOptions: groups.flat(),
    }));
}

/** Carts of one item to many, the same offering possibly more than once, at any active location. */
function orderArbitrary(fc: FC, model: ExploreModel): FastCheck.Arbitrary<Order> {
  const item = fc.oneof(...model.offerings.map((offering) => itemArbitrary(fc, offering)));
  const location = model.locations.length > 0 ? fc.constantFrom(...model.locations) : fc.constant(undefined);
  return (
    fc
      // minLength 0 with a filter, not minLength 1: fast-check then shrinks a cart down to its one failing item.
      .record({
        locationId: location,
        items: fc.array(item, { maxLength: MAX_CART_ITEMS }).filter((items) => items.length > 0),
      })
      .map(({ locationId, items }) => ({ ...(locationId !== undefined ? { locationId } : {}), items }))
  );
}

/** The seed fast-check runs with: a run seed that is an integer is used as is; any other is hashed (FNV-1a). */
export function numericSeed(seed: string): number {
  if (/^-?\d{1,9}$/.test(seed)) return Number(seed) | 0;
  let hash = 0x811c9dc5;
  for (const ch of seed) hash = Math.imul(hash ^ (ch.codePointAt(0) ?? 0), 0x01000193);
  return hash | 0;
}

/** The first `count` orders of the seed; `orders[i]` is what fast-check replays at path `i` (see shrinkOrder). */
export async function sampleOrders(model: ExploreModel, seed: number, count: number): Promise<Order[]> {
  if (count <= 0 || model.offerings.length === 0) return [];
  const fc = await fastCheck();
  return fc.sample(orderArbitrary(fc, model), { seed, numRuns: count });
}

/** A provider's own bounds (a clear 4xx on a valid order), learnt while exploring: later orders stay within them. */
export interface OrderCaps {
  items: number;
  quantity: number;
}

export const NO_CAPS: OrderCaps = { items: MAX_CART_ITEMS, quantity: MAX_ITEM_QUANTITY };

/** Both bounds at once: the smaller of each. */
export const tighterCaps = (a: OrderCaps, b: OrderCaps): OrderCaps => ({
  items: Math.min(a.items, b.items),
  quantity: Math.min(a.quantity, b.quantity),
});

export function fitOrder(order: Order, caps: OrderCaps): Order {
  return {
    ...order,
    items: order.items
      .slice(0, Math.max(1, caps.items))
      .map((i) => (i.quantity > caps.quantity ? { ...i, quantity: Math.max(1, caps.quantity) } : i)),
  };
}

/** A smaller order to try after a refusal (half the items, half the quantities), or undefined at the smallest. */
export function smallerOrder(order: Order): { order: Order; caps: OrderCaps } | undefined {
  const largest = Math.max(...order.items.map((i) => i.quantity));
  if (order.items.length === 1 && largest === 1) return undefined;
  const caps = { items: Math.ceil(order.items.length / 2), quantity: Math.ceil(largest / 2) };
  return { order: fitOrder(order, caps), caps };
}

export interface BoundedSend<T extends { order: Order }> {
  generated: Order;
  /** The bounds earlier orders taught. */
  caps: OrderCaps;
  send: (order: Order) => Promise<T>;
  refused: (answer: T) => boolean;
  /** False once no more request may start (time cap, interrupt). */
  more: () => boolean;
}

/** One generated order's answers: the refused ones in the order sent, the last (judged) one, the bounds taught. */
export interface BoundedAnswers<T> {
  refused: T[];
  last: T;
  /** The provider's bounds the refusals taught (NO_CAPS when none), for the orders after it. */
  caps: OrderCaps;
}

/**
 * One generated order's requests: the order within `caps`; after each refusal a smaller one (smallerOrder) until
 * one is answered otherwise or none is smaller.
 */
export async function sendWithinBounds<T extends { order: Order }>(
  options: BoundedSend<T>,
): Promise<BoundedAnswers<T>> {
  const refused: T[] = [];
  let caps = NO_CAPS;
  let last = await options.send(fitOrder(options.generated, options.caps));
  while (options.refused(last) && options.more()) {
    refused.push(last);
    const smaller = smallerOrder(last.order);
    if (!smaller) break;
    caps = tighterCaps(caps, smaller.caps);
    last = await options.send(smaller.order);
  }
  return { refused, last, caps };
}

/**
 * The generated orders (0-based indexes) whose requests the provider's refusals shaped: refused themselves, or sent
 * within a bound earlier refusals taught. The seed repeats these only while the provider refuses alike.
 */
export function shapedByRefusals(
  generated: readonly Order[],
  answers: readonly (BoundedAnswers<{ order: Order }> | undefined)[],
): number[] {
  return generated.flatMap((order, i) => {
    const a = answers[i];
    if (!a) return [];
    const first = a.refused[0] ?? a.last;
    return a.refused.length > 0 || JSON.stringify(first.order) !== JSON.stringify(order) ? [i] : [];
  });
}

export interface ShrinkOptions<T> {
  model: ExploreModel;
  seed: number;
  /** Index of the failing order in sampleOrders' list. */
  index: number;
  /** Whether an order still fails the same way (sends it); false also when the shrink budget is spent. */
  stillFails: (order: Order) => Promise<T | undefined>;
}

/** fast-check replays the failing order at its path and shrinks it; returns the smallest order that still failed. */
export async function shrinkOrder<T>(options: ShrinkOptions<T>): Promise<{ order: Order; found: T } | undefined> {
  let smallest: { order: Order; found: T } | undefined;
  const fc = await fastCheck();
  const property = fc.asyncProperty(orderArbitrary(fc, options.model), async (order) => {
    const found = await options.stillFails(order);
    if (found === undefined) return true;
    smallest = { order, found };
    return false;
  });
  await fc.check(property, { seed: options.seed, path: String(options.index), numRuns: options.index + 1 });
  return smallest;
}
