import type { ExploreModel } from './catalog-model.js';
import type { Order } from './orders.js';

/** What the quoted orders reached of the catalog (issue 19 item 3: "report which … were reached"). Pure. */
export interface Reach {
  offerings: [reached: number, of: number];
  variants: [number, number];
  options: [number, number];
  boundaries: [number, number];
  locations: [number, number];
  largestCart: number;
  largestQuantity: number;
  largestOptionQuantity: number;
  sameOfferingTwice: boolean;
}

export function reachOf(model: ExploreModel, quoted: readonly Order[]): Reach {
  const offerings = new Set<string>();
  const variants = new Set<string>();
  const options = new Set<string>();
  const boundaries = new Set<string>();
  const locations = new Set<string>();
  let largestCart = 0;
  let largestQuantity = 0;
  let largestOptionQuantity = 0;
  let sameOfferingTwice = false;

  for (const order of quoted) {
    if (order.locationId) locations.add(order.locationId);
    largestCart = Math.max(largestCart, order.items.length);
    const ids = order.items.map((i) => i.offeringId);
    if (new Set(ids).size < ids.length) sameOfferingTwice = true;
    for (const item of order.items) {
      offerings.add(item.offeringId);
      if (item.variantId) variants.add(item.variantId);
      largestQuantity = Math.max(largestQuantity, item.quantity);
      const perGroup = new Map<string, number>();
      for (const o of item.selectedOptions ?? []) {
        options.add(`${o.groupId}/${o.optionId}`);
        largestOptionQuantity = Math.max(largestOptionQuantity, o.quantity ?? 1);
        perGroup.set(o.groupId, (perGroup.get(o.groupId) ?? 0) + 1);
      }
      const offering = model.offerings.find((o) => o.id === item.offeringId);
      for (const g of offering?.groups ?? []) {
        const count = perGroup.get(g.id) ?? 0;
        if (count === g.min) boundaries.add(`${g.id}@min`);
        if (count === g.max) boundaries.add(`${g.id}@max`);
      }
    }
  }

  const allVariants = model.offerings.flatMap((o) => o.variants);
  const allOptions = model.offerings.flatMap((o) => o.groups.flatMap((g) => g.options.map((id) => `${g.id}/${id}`)));
  const allBoundaries = model.offerings.flatMap((o) => o.groups.flatMap((g) => [`${g.id}@min`, `${g.id}@max`]));
  return {
    offerings: [offerings.size, model.offerings.length],
    variants: [variants.size, allVariants.length],
    options: [options.size, allOptions.length],
    boundaries: [boundaries.size, allBoundaries.length],
    locations: [locations.size, model.locations.length],
    largestCart,
    largestQuantity,
    largestOptionQuantity,
    sameOfferingTwice,
  };
}

const share = ([reached, of]: [number, number], what: string): string => `${reached}/${of} ${what}`;

/** "reached 6/6 offerings, 4/4 variants, …; carts up to 6 items, quantities up to 40, …" */
export function describeReach(r: Reach): string {
  return [
    `reached ${share(r.offerings, 'offerings')}, ${share(r.variants, 'variants')}, ${share(r.options, 'options')}, ${share(r.boundaries, 'group boundaries (minSelections and maxSelections exactly)')}, ${share(r.locations, 'active locations')}`,
    `carts up to ${r.largestCart} item(s), item quantities up to ${r.largestQuantity}, option quantities up to ${r.largestOptionQuantity}, the same offering twice in one cart: ${r.sameOfferingTwice ? 'yes' : 'no'}`,
  ].join('; ');
}
