import type { components } from '../../contract/generated/contract-types.js';
import { UsageError } from '../../model/errors.js';

export type CoreEvent = components['schemas']['CoreEvent'];

/** What `provcert events` shows: every filter given must match (a list matches any of its entries). */
export interface EventFilter {
  /** `accepted`, `rejected`, `duplicate` or an answered HTTP status (401…). */
  statuses: string[];
  types: string[];
  verified?: boolean;
}

const STATUS_WORDS = ['accepted', 'rejected', 'duplicate'] as const;

/** The `--status` entries, checked: a word or a three-digit HTTP status. */
export function parseStatuses(list: readonly string[]): string[] {
  const out = list.map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
  const bad = out.find((s) => !(STATUS_WORDS as readonly string[]).includes(s) && !/^[1-5]\d\d$/.test(s));
  if (bad !== undefined)
    throw new UsageError(`--status "${bad}" is not one of ${STATUS_WORDS.join(', ')} or an HTTP status such as 401`);
  return out;
}

const accepted = (e: CoreEvent): boolean => e.verified && e.answeredStatus === 200 && !e.duplicate;

function statusMatches(e: CoreEvent, status: string): boolean {
  if (status === 'accepted') return accepted(e);
  if (status === 'duplicate') return e.duplicate;
  if (status === 'rejected') return e.answeredStatus >= 400;
  return String(e.answeredStatus) === status;
}

export function matches(e: CoreEvent, filter: EventFilter): boolean {
  if (filter.statuses.length > 0 && !filter.statuses.some((s) => statusMatches(e, s))) return false;
  if (filter.types.length > 0 && !filter.types.includes(e.eventType ?? '')) return false;
  return filter.verified === undefined || e.verified === filter.verified;
}

/** One line per event for a terminal: time, seq, type, action and new status, signature result, answer, reason. */
export function eventLine(e: CoreEvent): string {
  const what = [e.eventType ?? '(no eventType)', e.eventId ? `${e.eventId}` : ''].filter((s) => s !== '').join(' ');
  const action = e.actionId ? `${e.actionId}${e.newStatus ? ` → ${e.newStatus}` : ''}` : '';
  const signature = e.verified
    ? `✓ verified${e.verifiedWith === 'previous' ? ' with the previous secret' : ''}`
    : '✗ not verified';
  const answer = `${e.answeredStatus}${e.duplicate ? ' duplicate' : ''}`;
  return [e.receivedAt, `#${e.seq}`, what, action, signature, answer, e.problem ?? '']
    .filter((s) => s !== '')
    .join('  ');
}
