import type { components } from '../../contract/generated/contract-types.js';

/**
 * Typed views of provider payloads, derived from the contract's generated types (spec/openapi.yaml through
 * openapi-typescript): the shapes are defined and enforced there, not here. A view differs from its schema only
 * where checks read data they cannot trust to match it: GET /provider-info plans the run even when it fails the
 * schema, so its enums, manifest and metadata are read as the provider sent them (checks report on the values).
 */
type Schemas = components['schemas'];

/** What provcert sends as a selected option: both ids always (the contract leaves them optional). */
export type SelectedOptionInput = Schemas['SelectedOptionInput'] & { groupId: string; optionId: string };

/** What provcert sends as a quote item: a quantity always (the contract leaves it optional). */
export type QuoteItemInput = Omit<Schemas['QuoteItem'], 'selectedOptions'> & {
  quantity: number;
  selectedOptions?: SelectedOptionInput[];
};

/** manifest.certificationInput: the items provcert quotes first are the provider's, read as quote items. */
export type CertificationInputView = Omit<Schemas['CertificationInput'], 'items'> & { items?: QuoteItemInput[] };

/** GET /provider-info, read before (and whether or not) it matched the schema. */
export type ProviderInfoView = Pick<Schemas['ProviderInfo'], 'id' | 'slug' | 'name' | 'type'> & {
  status: string;
  capabilities: string[];
  authMethod?: string;
  manifest?: {
    certification?: { safeTestEnvironment?: unknown };
    customerRequirements?: Record<string, unknown>;
    inputMode?: string;
    certificationInput?: CertificationInputView;
    fulfillment?: string;
  } & Record<string, unknown>;
  metadata?: Record<string, unknown>;
};

/** Options, option groups and variants are read with ids (the contract leaves `id` optional; choosing one names it). */
export type OptionView = Schemas['Option'] & { id: string };
export type OptionGroupView = Omit<Schemas['OptionGroup'], 'options'> & { id: string; options?: OptionView[] };
export type VariantView = Schemas['Variant'] & { id: string };
export type OfferingView = Omit<Schemas['Offering'], 'variants' | 'optionGroups'> & {
  variants?: VariantView[];
  optionGroups?: OptionGroupView[];
};
export type CatalogView = Omit<Schemas['Catalog'], 'offerings'> & { offerings: OfferingView[] };

/** A quote line; an option's `quantity` is not in the contract's QuoteLineOption (open fields), read when present. */
export type QuoteLineView = Omit<Schemas['QuoteLine'], 'selectedOptions'> & {
  selectedOptions?: (Schemas['QuoteLineOption'] & { quantity?: number })[];
};
export type QuoteView = Omit<Schemas['NormalizedQuote'], 'lines'> & { lines: QuoteLineView[] };

export type ActionView = Schemas['NormalizedAction'];
