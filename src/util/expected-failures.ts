import { CHECK_IDS, type CheckId } from '../model/check-ids.js';
import { problemsError, UsageError } from '../model/errors.js';
import { isSlug } from '../model/slug.js';
import type { ExpectedFailure } from '../model/waivers.js';
import { describeValue } from './describe-value.js';
import { didYouMean } from './did-you-mean.js';
import { isRecord } from './json.js';
import { unknownKeyReason } from './unknown-key.js';

/**
 * `expectedFailures` of a config, fleet or serve file or of the library's options (spec/expected-failures.schema.json),
 * read with one clear line per problem naming the entry: "expectedFailures[1].until: 2026-13-01 is not a date
 * (YYYY-MM-DD)". Here, below config and lib, so both read waivers the same way without an upward import.
 */

/** The config file key that holds them (config file only: no flag, no environment variable). */
export const EXPECTED_FAILURES_KEY = 'expectedFailures';

const ENTRY_KEYS = ['check', 'requirement', 'provider', 'reason', 'until'] as const;
const REQUIREMENT_ID = /^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const isCheckId = (value: string): value is CheckId => (CHECK_IDS as readonly string[]).includes(value);

/** A real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** What was written, for a message: strings as they are (short), other values described. */
const shown = (value: unknown): string =>
  typeof value === 'string' ? (value.length > 60 ? `${value.slice(0, 57)}…` : value) : describeValue(value);

function entryProblems(entry: unknown, where: string): string[] {
  if (!isRecord(entry)) {
    return [`${where}: must be a mapping with check or requirement, reason and until (found ${describeValue(entry)})`];
  }
  const problems: string[] = [];
  for (const key of Object.keys(entry)) {
    if (!(ENTRY_KEYS as readonly string[]).includes(key))
      problems.push(`${where}: ${unknownKeyReason(key, ENTRY_KEYS)}`);
  }
  const { check, requirement, provider, reason, until } = entry;
  if (check === undefined && requirement === undefined)
    problems.push(
      `${where}: names neither check nor requirement; set check (a check id), requirement (a requirement id), or both`,
    );
  else if (check !== undefined && (typeof check !== 'string' || !isCheckId(check))) {
    const hint = typeof check === 'string' ? didYouMean(check, CHECK_IDS) : '';
    problems.push(`${where}.check: ${shown(check)} is not a check id${hint || ' (see provcert list)'}`);
  }
  if (requirement !== undefined && (typeof requirement !== 'string' || !REQUIREMENT_ID.test(requirement))) {
    problems.push(`${where}.requirement: ${shown(requirement)} is not a requirement id such as QUOTE-TOTAL-FORMULA`);
  }
  if (provider !== undefined && !isSlug(provider)) {
    problems.push(`${where}.provider: ${shown(provider)} is not a provider slug such as north-kitchen`);
  }
  if (typeof reason !== 'string' || reason.trim() === '') {
    problems.push(
      `${where}.reason: ${reason === undefined ? 'missing' : 'must not be empty'} (why the failure is accepted for now)`,
    );
  }
  if (until === undefined) problems.push(`${where}.until: missing (the last day the waiver holds, YYYY-MM-DD)`);
  else if (typeof until !== 'string' || !isCalendarDate(until)) {
    problems.push(`${where}.until: ${shown(until)} is not a date (YYYY-MM-DD)`);
  }
  return problems;
}

/**
 * The entries of `expectedFailures`, checked. `source` names the file ("provcert.config.yaml"); every problem
 * is a UsageError (exit 2): the first in the message, the others in the hint.
 */
export function parseExpectedFailures(value: unknown, source: string): ExpectedFailure[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    throw new UsageError(
      `${source}: ${EXPECTED_FAILURES_KEY} must be a list of entries with check or requirement, reason and until (found ${describeValue(value)})`,
    );
  }
  const problems = value.flatMap((entry, i) => entryProblems(entry, `${EXPECTED_FAILURES_KEY}[${i}]`));
  if (problems.length > 0)
    throw problemsError(
      problems.map((problem) => `${source}: ${problem}`),
      source,
    );
  return value.map((entry: Record<string, unknown>) => ({
    ...(entry['check'] !== undefined ? { check: entry['check'] as CheckId } : {}),
    ...(entry['requirement'] !== undefined ? { requirement: String(entry['requirement']) } : {}),
    ...(entry['provider'] !== undefined ? { provider: String(entry['provider']) } : {}),
    reason: String(entry['reason']).trim(),
    until: String(entry['until']),
  }));
}
