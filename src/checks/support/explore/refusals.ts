import type { RequirementId } from '../../../model/findings.js';
import type { OfferingView, QuoteItemInput, SelectedOptionInput } from '../../framework/views.js';
import type { ExploreModel, ModelGroup, ModelOffering } from './catalog-model.js';
import type { Order } from './orders.js';

/**
 * The limits a quote must enforce (issue 19 item 5; DECISIONS.md, Exploration), generated from the catalog model:
 * each refusal case is a one-item order broken in exactly one way, and each boundary case is the valid side of a
 * limit (exactly minSelections, exactly maxSelections), which must be quoted. Pure.
 */

export interface RefusalCase {
  /** "3 options in group grp-x (maxSelections 2) of offering off-y" */
  describe: string;
  requirement: RequirementId;
  order: Order;
  /** The id that must not be quoted as if it were fine (an unavailable or unknown item), to name a substitution. */
  wanted?: string;
}

export interface BoundaryCase {
  describe: string;
  order: Order;
  /** "grp-x@max": what the report lists as reached. */
  boundary: string;
}

const UNKNOWN = 'provcert-unknown';

const pickOptions = (group: ModelGroup, count: number): SelectedOptionInput[] =>
  group.options.slice(0, count).map((optionId) => ({ groupId: group.id, optionId }));

/** The smallest valid item of an offering: first variant, quantity 1, each group at its minSelections. */
export function baseItem(offering: ModelOffering): QuoteItemInput {
  return {
    offeringId: offering.id,
    ...(offering.variants[0] !== undefined ? { variantId: offering.variants[0] } : {}),
    quantity: 1,
    selectedOptions: offering.groups.flatMap((g) => pickOptions(g, g.min)),
  };
}

/** The base item with one group's selection replaced. */
function withGroup(offering: ModelOffering, group: ModelGroup, selection: SelectedOptionInput[]): QuoteItemInput {
  const item = baseItem(offering);
  return {
    ...item,
    selectedOptions: [...(item.selectedOptions ?? []).filter((o) => o.groupId !== group.id), ...selection],
  };
}

export interface Located {
  locationId?: string;
}

const orderOf = (at: Located, item: QuoteItemInput): Order => ({ ...at, items: [item] });

/** The valid sides of every group's limits: exactly minSelections and exactly maxSelections. */
export function boundaryCases(model: ExploreModel, at: Located): BoundaryCase[] {
  const cases: BoundaryCase[] = [];
  for (const offering of model.offerings)
    for (const group of offering.groups) {
      const ends =
        group.min === group.max
          ? [['min/max', group.min] as const]
          : ([
              ['min', group.min],
              ['max', group.max],
            ] as const);
      for (const [end, count] of ends)
        cases.push({
          describe: `${count} option(s) in group ${group.id} of offering ${offering.id} (exactly ${end === 'min/max' ? 'minSelections and maxSelections' : `${end}Selections`} ${count})`,
          order: orderOf(at, withGroup(offering, group, pickOptions(group, count))),
          boundary: `${group.id}@${end}`,
        });
    }
  return cases;
}

function groupRefusals(offering: ModelOffering, group: ModelGroup, at: Located): RefusalCase[] {
  const cases: RefusalCase[] = [];
  const where = `group ${group.id} of offering ${offering.id}`;
  if (group.declaredMax !== undefined && group.declaredMax < group.options.length)
    cases.push({
      describe: `${group.declaredMax + 1} options in ${where} (maxSelections ${group.declaredMax})`,
      requirement: 'QUOTE-SELECTION-LIMITS',
      order: orderOf(at, withGroup(offering, group, pickOptions(group, group.declaredMax + 1))),
    });
  if (group.min >= 1)
    cases.push({
      describe:
        group.min === 1
          ? `no choice in ${where} (${group.required ? 'required' : `minSelections ${group.min}`})`
          : `${group.min - 1} option(s) in ${where} (minSelections ${group.min})`,
      requirement: 'QUOTE-SELECTION-LIMITS',
      order: orderOf(at, withGroup(offering, group, pickOptions(group, group.min - 1))),
    });
  return cases;
}

/** Every refusal the contract demands, generated from the model: limits, availability, foreign and unknown ids. */
export function refusalCases(model: ExploreModel, at: Located): RefusalCase[] {
  const first = model.offerings[0];
  if (first === undefined) return [];
  const cases: RefusalCase[] = model.offerings.flatMap((o) => o.groups.flatMap((g) => groupRefusals(o, g, at)));
  for (const offering of model.unavailableOfferings.slice(0, 2)) cases.push(unavailableOffering(offering, at));
  for (const { offeringId, variantId } of model.unavailableVariants.slice(0, 2)) {
    const offering = model.offerings.find((o) => o.id === offeringId);
    if (offering)
      cases.push({
        describe: `unavailable variant ${variantId} of offering ${offeringId}`,
        requirement: 'QUOTE-UNAVAILABLE',
        order: orderOf(at, { ...baseItem(offering), variantId }),
        wanted: variantId,
      });
  }
  for (const ref of model.unavailableOptions.slice(0, 2)) {
    const offering = model.offerings.find((o) => o.id === ref.offeringId);
    const group = offering?.groups.find((g) => g.id === ref.groupId);
    if (!offering || !group || group.max < 1) continue;
    const selection = [
      ...pickOptions(group, Math.max(0, group.min - 1)),
      { groupId: ref.groupId, optionId: ref.optionId },
    ];
    cases.push({
      describe: `unavailable option ${ref.optionId} in group ${ref.groupId} of offering ${ref.offeringId}`,
      requirement: 'QUOTE-UNAVAILABLE',
      order: orderOf(at, withGroup(offering, group, selection)),
      wanted: ref.optionId,
    });
  }
  const foreign = foreignOption(model);
  if (foreign) cases.push({ ...foreign, order: orderOf(at, foreign.item) });
  for (const quantity of [0, -1])
    cases.push({
      describe: `quantity ${quantity} of offering ${first.id}`,
      requirement: 'QUOTE-SELECTION-LIMITS',
      order: orderOf(at, { ...baseItem(first), quantity }),
    });
  cases.push(...unknownIds(model, first, at));
  return cases;
}

function unavailableOffering(offering: OfferingView, at: Located): RefusalCase {
  // Its required groups are filled, so availability is the only reason left to refuse it.
  const selectedOptions = (offering.optionGroups ?? []).flatMap((g) => {
    const count = Math.max(g.minSelections ?? 0, g.isRequired ? 1 : 0);
    return (g.options ?? []).slice(0, count).map((o) => ({ groupId: g.id, optionId: o.id }));
  });
  const variantId = offering.variants?.[0]?.id;
  return {
    describe: `unavailable offering ${offering.id}`,
    requirement: 'QUOTE-UNAVAILABLE',
    order: orderOf(at, { offeringId: offering.id, ...(variantId ? { variantId } : {}), quantity: 1, selectedOptions }),
    wanted: offering.id,
  };
}

/** An option of another offering's group, added to an offering that may take options. */
function foreignOption(model: ExploreModel): (Omit<RefusalCase, 'order'> & { item: QuoteItemInput }) | undefined {
  for (const donor of model.offerings)
    for (const group of donor.groups) {
      const optionId = group.options[0];
      const taker = model.offerings.find((o) => o.id !== donor.id && !o.groups.some((g) => g.id === group.id));
      if (optionId === undefined || !taker) continue;
      const item = baseItem(taker);
      return {
        describe: `option ${optionId} of offering ${donor.id}'s group ${group.id} on offering ${taker.id}`,
        requirement: 'QUOTE-SELECTION-LIMITS',
        item: { ...item, selectedOptions: [...(item.selectedOptions ?? []), { groupId: group.id, optionId }] },
      };
    }
  return undefined;
}

function unknownIds(model: ExploreModel, first: ModelOffering, at: Located): RefusalCase[] {
  const cases: RefusalCase[] = [
    {
      describe: `unknown offering id ${UNKNOWN}-offering`,
      requirement: 'ERROR-NOT-FOUND',
      order: orderOf(at, { offeringId: `${UNKNOWN}-offering`, quantity: 1 }),
      wanted: `${UNKNOWN}-offering`,
    },
  ];
  const withVariants = model.offerings.find((o) => o.variants.length > 0);
  if (withVariants)
    cases.push({
      describe: `unknown variant id ${UNKNOWN}-variant of offering ${withVariants.id}`,
      requirement: 'ERROR-NOT-FOUND',
      order: orderOf(at, { ...baseItem(withVariants), variantId: `${UNKNOWN}-variant` }),
      wanted: `${UNKNOWN}-variant`,
    });
  const withGroups = model.offerings.find((o) => o.groups.some((g) => g.max > g.min)) ?? first;
  const group = withGroups.groups.find((g) => g.max > g.min);
  if (group)
    cases.push({
      describe: `unknown option id ${UNKNOWN}-option in group ${group.id} of offering ${withGroups.id}`,
      requirement: 'ERROR-NOT-FOUND',
      order: orderOf(at, {
        ...withGroup(withGroups, group, [
          ...pickOptions(group, group.min),
          { groupId: group.id, optionId: `${UNKNOWN}-option` },
        ]),
      }),
      wanted: `${UNKNOWN}-option`,
    });
  return cases;
}
