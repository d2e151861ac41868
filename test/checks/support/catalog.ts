import type { CatalogView, OfferingView, OptionGroupView } from '../../../src/checks/framework/views.js';

/** Catalogs for the checks' pure helpers: provider "demo", offerings of provider "p". */

/** An offering whose code and title derive from its id; `extra` sets the rest (a price of 1000 unless given). */
export const offering = (id: string, extra: Partial<OfferingView> = {}): OfferingView => ({
  id,
  providerId: 'p',
  offeringCode: id.toUpperCase(),
  title: id,
  basePrice: 1000,
  ...extra,
});

export const catalogOf = (...offerings: OfferingView[]): CatalogView => ({
  providerSlug: 'demo',
  categories: [],
  offerings,
});

/** The pizza the quote helpers price: 1000, before its variants and options. */
export const pizza = (extra: Partial<OfferingView>): OfferingView =>
  offering('pizza', { offeringCode: 'PZ', title: 'Pizza', ...extra });

/** Up to two optional toppings: olives +150, basil +50. */
export const TOPPINGS: OptionGroupView = {
  id: 'top',
  isRequired: false,
  minSelections: 0,
  maxSelections: 2,
  options: [
    { id: 'olives', priceDelta: 150 },
    { id: 'basil', priceDelta: 50 },
  ],
};
