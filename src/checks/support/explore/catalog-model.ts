import type { OfferingView } from '../../framework/views.js';

/**
 * The catalog as exploration sees it (issue 19 item 2): what may be ordered and within which limits, and what is
 * unavailable. Pure: built from GET /catalog (completed by GET /offerings/{id} where an entry is partial) and the
 * active locations.
 */

export interface ModelGroup {
  id: string;
  /** Fewest selections a valid order makes: minSelections, at least 1 when the group is required. */
  min: number;
  /** Most selections a valid order makes: maxSelections, at most the number of available options. */
  max: number;
  required: boolean;
  /** The available options' ids, in catalog order. */
  options: string[];
  /** As the catalog states them (the refusal cases step over these, not over `min`/`max`). */
  declaredMax: number | undefined;
  optionCount: number;
}

export interface ModelOffering {
  id: string;
  /** Available variants; empty when the offering has none (then no variantId is sent). */
  variants: string[];
  groups: ModelGroup[];
}

export interface OptionRef {
  offeringId: string;
  groupId: string;
  optionId: string;
}

export interface ExploreModel {
  /** Active locations (none: the order names no location and the provider picks its own). */
  locations: string[];
  /** Offerings a valid order can hold. */
  offerings: ModelOffering[];
  unavailableOfferings: OfferingView[];
  unavailableVariants: { offeringId: string; variantId: string }[];
  unavailableOptions: OptionRef[];
  /** Offerings left out because their own limits admit no valid order (catalog's business, not exploration's). */
  unorderable: string[];
}

function modelGroup(group: NonNullable<OfferingView['optionGroups']>[number]): ModelGroup {
  const all = group.options ?? [];
  const options = all.filter((o) => o.isAvailable !== false).map((o) => o.id);
  return {
    id: group.id,
    min: Math.max(group.minSelections ?? 0, group.isRequired === true ? 1 : 0),
    max: Math.min(group.maxSelections ?? options.length, options.length),
    required: group.isRequired === true,
    options,
    declaredMax: group.maxSelections,
    optionCount: all.length,
  };
}

export function buildModel(offerings: readonly OfferingView[], locations: readonly string[]): ExploreModel {
  const model: ExploreModel = {
    locations: [...locations],
    offerings: [],
    unavailableOfferings: [],
    unavailableVariants: [],
    unavailableOptions: [],
    unorderable: [],
  };
  for (const offering of offerings) {
    for (const v of offering.variants ?? [])
      if (v.isAvailable === false) model.unavailableVariants.push({ offeringId: offering.id, variantId: v.id });
    for (const g of offering.optionGroups ?? [])
      for (const o of g.options ?? [])
        if (o.isAvailable === false)
          model.unavailableOptions.push({ offeringId: offering.id, groupId: g.id, optionId: o.id });
    if (offering.isAvailable === false) {
      model.unavailableOfferings.push(offering);
      continue;
    }
    const variants = (offering.variants ?? []).filter((v) => v.isAvailable !== false).map((v) => v.id);
    const groups = (offering.optionGroups ?? []).map(modelGroup);
    const noVariant = (offering.variants ?? []).length > 0 && variants.length === 0;
    if (noVariant || groups.some((g) => g.min > g.max)) model.unorderable.push(offering.id);
    else model.offerings.push({ id: offering.id, variants, groups });
  }
  return model;
}

/** Whether a catalog entry may lack what GET /offerings/{id} would add (no variants and no option groups listed). */
export const isPartialEntry = (offering: OfferingView): boolean =>
  offering.variants === undefined && offering.optionGroups === undefined;
