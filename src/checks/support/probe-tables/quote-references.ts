import type { RequirementId } from '../../../model/findings.js';
import type { CatalogView, OfferingView, QuoteItemInput } from '../../framework/views.js';

/**
 * The reference probe table of POST /quote: a valid order that names a location, an option or a variant that the
 * provider does not have where it names it. Each row changes one reference of a valid order; every other part stays
 * valid, so only that reference can be refused. quote-validation sends the rows; each must get a 4xx ErrorResponse
 * (a 2xx quoted what cannot be ordered, a 5xx crashed on it). Pure data.
 *
 * - an unknown locationId: an id that does not exist ("| 404 | NOT_FOUND | endpoint or id does not exist"; a 400
 *   INVALID_ARGUMENT refuses it as well);
 * - an inactive location (GET /locations lists it with isActive false): "Availability … limits are checked"; a
 *   quote there offers fulfillment the provider says it does not give (docs/decisions.md);
 * - an option for an offering without option groups, a variantId for an offering without variants: the offering
 *   takes none ("Availability, quantity and option selection limits are checked"). A provider reading the
 *   offering's groups or variants without a guard crashes here, where an offering with some only misses one.
 */

export type ReferenceRowName =
  | 'unknown-location'
  | 'inactive-location'
  | 'option-without-groups'
  | 'variant-without-variants';

export interface ReferenceRow {
  name: ReferenceRowName;
  /** What was asked, in words ("POST /quote with …"). */
  describe: string;
  requirement: RequirementId;
  /** The location to quote at instead of the run's one (location rows only). */
  locationId?: string;
  items: QuoteItemInput[];
}

export interface ReferenceInput {
  catalog: CatalogView;
  /** The run's valid selection (its items are quoted at another location by the location rows). */
  items: readonly QuoteItemInput[];
  /** Whether the provider declares LOCATIONS (then its quotes name a location, and the location rows apply). */
  locations: boolean;
  /** A location GET /locations lists with isActive false, if any. */
  inactiveLocationId?: string;
  seed: string;
}

const available = <T extends { isAvailable?: boolean }>(xs: readonly T[] | undefined): T[] =>
  (xs ?? []).filter((x) => x.isAvailable !== false);

const hasRequiredGroup = (o: OfferingView): boolean =>
  (o.optionGroups ?? []).some((g) => g.isRequired === true || (g.minSelections ?? 0) > 0);

/** An option of another offering's group (or, in a catalog without options, ids no offering has). */
function donorOption(catalog: CatalogView, taker: OfferingView): { groupId: string; optionId: string } {
  for (const o of catalog.offerings) {
    if (o.id === taker.id) continue;
    for (const g of o.optionGroups ?? []) {
      const option = g.options?.[0];
      if (option) return { groupId: g.id, optionId: option.id };
    }
  }
  return { groupId: 'provcert-unknown-group', optionId: 'provcert-unknown-option' };
}

/** A variant of another offering (or, in a catalog without variants, an id no offering has). */
function donorVariant(catalog: CatalogView, taker: OfferingView): string {
  const other = catalog.offerings.find((o) => o.id !== taker.id && (o.variants ?? []).length > 0);
  return other?.variants?.[0]?.id ?? 'provcert-unknown-variant';
}

function optionWithoutGroups(catalog: CatalogView): ReferenceRow | undefined {
  const takers = available(catalog.offerings).filter((o) => (o.optionGroups ?? []).length === 0);
  const taker = takers.find((o) => (o.variants ?? []).length === 0) ?? takers[0];
  if (!taker) return undefined;
  const variant = available(taker.variants)[0];
  const option = donorOption(catalog, taker);
  return {
    name: 'option-without-groups',
    describe: `option ${option.optionId} of group ${option.groupId} on offering ${taker.id}, which has no option groups`,
    requirement: 'QUOTE-SELECTION-LIMITS',
    items: [
      {
        offeringId: taker.id,
        ...(variant ? { variantId: variant.id } : {}),
        quantity: 1,
        selectedOptions: [{ ...option, quantity: 1 }],
      },
    ],
  };
}

function variantWithoutVariants(catalog: CatalogView): ReferenceRow | undefined {
  const takers = available(catalog.offerings).filter((o) => (o.variants ?? []).length === 0 && !hasRequiredGroup(o));
  const taker = takers.find((o) => (o.optionGroups ?? []).length === 0) ?? takers[0];
  if (!taker) return undefined;
  const variantId = donorVariant(catalog, taker);
  return {
    name: 'variant-without-variants',
    describe: `variant ${variantId} on offering ${taker.id}, which has no variants`,
    requirement: 'QUOTE-SELECTION-LIMITS',
    items: [{ offeringId: taker.id, variantId, quantity: 1 }],
  };
}

/** The rows this catalog and these locations allow, and the rows they give nothing to probe with (and why). */
export function quoteReferenceRows(input: ReferenceInput): {
  rows: ReferenceRow[];
  absent: { name: ReferenceRowName; reason: string }[];
} {
  const rows: ReferenceRow[] = [];
  const absent: { name: ReferenceRowName; reason: string }[] = [];
  const items = [...input.items];
  if (input.locations && items.length > 0) {
    const locationId = `provcert-unknown-location-${input.seed}`;
    rows.push({
      name: 'unknown-location',
      describe: `locationId ${locationId}, which GET /locations does not list`,
      requirement: 'ERROR-NOT-FOUND',
      locationId,
      items,
    });
    if (input.inactiveLocationId !== undefined)
      rows.push({
        name: 'inactive-location',
        describe: `locationId ${input.inactiveLocationId}, which GET /locations lists with isActive false`,
        requirement: 'QUOTE-SELECTION-LIMITS',
        locationId: input.inactiveLocationId,
        items,
      });
    else absent.push({ name: 'inactive-location', reason: 'GET /locations lists no inactive location' });
  } else absent.push({ name: 'unknown-location', reason: 'the provider does not declare LOCATIONS' });
  const option = optionWithoutGroups(input.catalog);
  if (option) rows.push(option);
  else absent.push({ name: 'option-without-groups', reason: 'every available offering has option groups' });
  const variant = variantWithoutVariants(input.catalog);
  if (variant) rows.push(variant);
  else
    absent.push({
      name: 'variant-without-variants',
      reason: 'every available offering has variants or a required option group',
    });
  return { rows, absent };
}
