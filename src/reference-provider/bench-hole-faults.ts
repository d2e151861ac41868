import { isRecord } from '../util/json.js';
import { LOCATIONS, OFFERINGS } from './catalog.js';

/**
 * Faults that keep the holes of the mutation bench fixed (issue 33; bench/mutation/triage.yaml): each is the bug a
 * surviving mutant showed, written on purpose, so the check change that now catches it stays proven. Kept apart
 * from the routes so the conforming path stays readable (and, as a *-faults.ts file, never mutated). Callers test
 * the fault switch inline (`faults.has(…) && helper(…)`), so the bench's ignorer knows the branch for test equipment.
 */

/** action-null-item-crashes: an action item that is not an object is read as one, and the read throws (HTTP 500). */
export const actionItemCrashes = (items: unknown): boolean =>
  Array.isArray(items) && items.some((item) => !isRecord(item));

/** Where quote-unknown-location-accepted quotes an unknown location: the first active one. */
export const firstActiveLocationId = (): string | undefined => LOCATIONS.find((l) => l.isActive)?.id;

/**
 * quote-absent-options-crash: an item naming options for an offering without option groups, or a variant for one
 * without variants, reads the missing list without a guard and throws (HTTP 500).
 */
export function absentOptionsCrash(body: unknown, resolveId: (id: string) => string): boolean {
  if (!isRecord(body) || !Array.isArray(body['items'])) return false;
  return body['items'].some((item) => {
    if (!isRecord(item) || typeof item['offeringId'] !== 'string') return false;
    const offering = OFFERINGS.find((o) => o.id === resolveId(String(item['offeringId'])));
    if (!offering) return false;
    const namesOption = Array.isArray(item['selectedOptions']) && item['selectedOptions'].length > 0;
    return (
      (namesOption && offering.optionGroups === undefined) ||
      (item['variantId'] !== undefined && offering.variants === undefined)
    );
  });
}
