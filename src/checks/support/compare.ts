import { isRecord } from '../../util/json.js';
/**
 * Comparing two payloads that should describe the same thing (an offering from GET /catalog and from
 * GET /offerings/{id} or GET /search), ignoring key order.
 */

/** Deep equality, key order ignored. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}

const short = (value: unknown): string => {
  const json = JSON.stringify(value) ?? 'undefined';
  return json.length > 40 ? `${json.slice(0, 37)}…` : json;
};

export interface PayloadDiff {
  /** Fields present on both sides with different values: `basePrice 1300 (catalog 1200)`. */
  changed: string[];
  /** Fields present on one side only: `description only in GET /offerings/{id}`. */
  oneSided: string[];
}

/**
 * Top-level differences between `actual` and the `reference` (the catalog entry). Nested values are
 * compared whole, so a difference in one option shows as its containing field (e.g. `optionGroups`).
 */
export function diffTopLevel(
  reference: Record<string, unknown>,
  actual: Record<string, unknown>,
  names: { reference: string; actual: string },
): PayloadDiff {
  const changed: string[] = [];
  const oneSided: string[] = [];
  const keys = [...new Set([...Object.keys(reference), ...Object.keys(actual)])].sort();
  for (const key of keys) {
    const inRef = Object.hasOwn(reference, key) && reference[key] !== undefined;
    const inActual = Object.hasOwn(actual, key) && actual[key] !== undefined;
    if (inRef && inActual) {
      if (!deepEqual(reference[key], actual[key]))
        changed.push(`${key} ${short(actual[key])} (${names.reference} ${short(reference[key])})`);
    } else if (inRef) {
      oneSided.push(`${key} only in ${names.reference}`);
    } else if (inActual) {
      oneSided.push(`${key} only in ${names.actual}`);
    }
  }
  return { changed, oneSided };
}
