import { isRecord } from '../util/json.js';
import type { ActiveFaults } from './faults.js';

/**
 * Faults that keep the holes of the mutation bench fixed (issue 33; bench/mutation/triage.yaml): each is the bug a
 * surviving mutant showed, written on purpose, so the check change that now catches it stays proven. Kept apart
 * from the routes so the conforming path stays readable (and, as a *-faults.ts file, never mutated).
 */

/** action-null-item-crashes: an action item that is not an object is read as one, and the read throws (HTTP 500). */
export const actionItemCrashes = (items: unknown, faults: ActiveFaults): boolean =>
  faults.has('action-null-item-crashes') && Array.isArray(items) && items.some((item) => !isRecord(item));
