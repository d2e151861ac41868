import { isRecord } from '../../util/json.js';

/**
 * Merchant-internal names a canonical field is often renamed to (contract, Offering: "Canonical field names
 * are not renamed to merchant-internal names"). A required field that is missing while one of these is present
 * is a renaming, not an omission.
 */
const ALIASES: Readonly<Record<string, readonly string[]>> = {
  title: ['name', 'label', 'displayName', 'productName'],
  basePrice: ['price', 'amount', 'unitPrice', 'priceCents'],
  offeringCode: ['sku', 'code', 'productCode', 'itemCode'],
  currency: ['currencyCode'],
  isAvailable: ['available', 'inStock', 'enabled'],
  categorySlug: ['category', 'categoryId'],
  optionGroups: ['modifierGroups', 'modifiers', 'addons'],
  variants: ['sizes'],
};

/** The value at a JSON pointer ("" = the whole document), or undefined. */
function atPointer(json: unknown, pointer: string): unknown {
  let node = json;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isRecord(node)) node = node[key];
    else return undefined;
  }
  return node;
}

/** The merchant-internal name present at `pointer` in place of the missing canonical `field`, if any. */
export function renamedFrom(json: unknown, pointer: string, field: string): string | undefined {
  const node = atPointer(json, pointer);
  if (!isRecord(node)) return undefined;
  return ALIASES[field]?.find((alias) => alias in node);
}
