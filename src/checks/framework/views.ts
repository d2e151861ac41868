/**
 * Typed views of payloads AFTER they validated against the spec's schemas. Only the fields checks read
 * are named; the shapes themselves are defined (and enforced) by spec/openapi.yaml, not here.
 */
export interface ProviderInfoView {
  id: string;
  slug: string;
  name: string;
  status: string;
  type: string;
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
}

export interface SelectedOptionInput {
  groupId: string;
  optionId: string;
  quantity?: number;
}
export interface QuoteItemInput {
  offeringId: string;
  variantId?: string;
  quantity: number;
  selectedOptions?: SelectedOptionInput[];
}

export interface CertificationInputView {
  locationId?: string;
  items?: QuoteItemInput[];
  customer?: { name?: string; phone?: string };
  destination?: { raw?: string };
  searchQuery?: string;
}

export interface OptionView {
  id: string;
  name?: string;
  priceDelta?: number;
  isDefault?: boolean;
  isAvailable?: boolean;
}
export interface OptionGroupView {
  id: string;
  name?: string;
  isRequired?: boolean;
  minSelections?: number;
  maxSelections?: number;
  options?: OptionView[];
}
export interface VariantView {
  id: string;
  name?: string;
  basePrice?: number;
  isAvailable?: boolean;
}
export interface OfferingView {
  id: string;
  providerId: string;
  offeringCode: string;
  title: string;
  basePrice: number;
  categorySlug?: string;
  isAvailable?: boolean;
  currency?: string;
  variants?: VariantView[];
  optionGroups?: OptionGroupView[];
}
export interface CategoryView {
  id?: string;
  slug?: string;
  title?: string;
  offeringsCount?: number;
}
export interface CatalogView {
  providerSlug: string;
  categories: CategoryView[];
  offerings: OfferingView[];
}

export interface QuoteLineView {
  offeringId?: string;
  offeringTitle?: string;
  variantId?: string;
  quantity?: number;
  unitPrice?: number;
  optionsTotal?: number;
  lineTotal?: number;
  selectedOptions?: { groupId?: string; optionId?: string; name?: string; priceDelta?: number; quantity?: number }[];
}
export interface QuoteView {
  id: string;
  providerSlug: string;
  lines: QuoteLineView[];
  subtotal: number;
  total: number;
  expiresAt: string;
  locationId?: string;
  currency?: string;
  totalFees?: number;
  totalDiscount?: number;
  fees?: { name?: string; amount?: number }[];
}

export interface ActionView {
  id: string;
  publicId: string;
  providerSlug: string;
  status: string;
  lines: { offeringId?: string; quantity?: number; unitPrice?: number; optionsTotal?: number; lineTotal?: number }[];
  subtotal: number;
  total: number;
  createdAt: string;
  updatedAt: string;
  externalActionId?: string;
  quoteId?: string;
  paymentStatus?: string;
  nextAction?: { type?: string; url?: string; label?: string };
}
