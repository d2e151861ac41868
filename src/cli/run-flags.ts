import { CHECKS, parseCheckIds } from '../checks/framework/registry.js';
import { flagNameOf, type OptionSchema, type OptionTable, runOptionTable } from '../config/options.js';
import { splitList } from '../config/values.js';
import type { CheckId } from '../model/check-ids.js';
import { UsageError } from '../model/errors.js';
import type { RunValues } from '../model/run-values.js';
import { didYouMean } from '../util/did-you-mean.js';
import { parseAuthFlag } from './options.js';

/**
 * The run options as a command hands them over: commander's strings and booleans, or values a command already
 * holds (demo's port, a fleet's receiver, a replayed report's inputs), which are checked the same way.
 */
export type FlagValues = { readonly [key: string]: string | number | boolean | readonly string[] | undefined };

function checkIds(flag: string, values: readonly string[]): CheckId[] {
  const { ids, unknown } = parseCheckIds(values.join(','));
  if (unknown.length === 0) return ids;
  const known = CHECKS.map((c) => c.id);
  const named = unknown.map((u) => `"${u}"${didYouMean(u, known)}`).join(', ');
  throw new UsageError(`${flag}: unknown check id ${named}; known ids: ${known.join(', ')}`);
}

/**
 * A value of a named set (profile, fulfillment: the schema's enum), in any case, settled to its name in capitals,
 * as the config file and the environment settle it; empty is unset.
 */
function named(flag: string, text: string, schema: OptionSchema): string | undefined {
  if (text === '') return undefined;
  const names = (schema.enum ?? []).map(String).filter((name) => name === name.toUpperCase());
  const found = names.find((name) => name === text.toUpperCase());
  const choices = `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  if (!found) throw new UsageError(`${flag} must be ${choices} (got "${text}")`);
  return found;
}

/** Options whose text has a domain to check beyond its kind and enum; the rest are read by kind alone. */
const PARSED: Readonly<Record<string, (text: string) => unknown>> = { auth: parseAuthFlag };
const CHECK_LISTS: ReadonlySet<string> = new Set(['only', 'skip']);

function integer(flag: string, value: string | number, schema: OptionSchema): number {
  const [min, max] = [schema.minimum ?? Number.MIN_SAFE_INTEGER, schema.maximum ?? Number.MAX_SAFE_INTEGER];
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max} (got "${value}")`);
  return n;
}

const asList = (value: string | readonly string[]): string[] =>
  typeof value === 'string' ? splitList(value) : value.map((s) => s.trim()).filter(Boolean);

/**
 * A command's run flags → typed run values, once, at the cli's boundary: each problem is a UsageError naming the
 * flag. The kinds and bounds are spec/config.schema.json's (or a test's table), so a new option needs no code here.
 */
export function parseRunFlags(given: FlagValues | object, table: OptionTable = runOptionTable()): RunValues {
  const out: Record<string, unknown> = {};
  for (const [key, kind] of Object.entries(table.kinds)) {
    const value = (given as FlagValues)[key];
    if (value === undefined) continue;
    const flag = flagNameOf(key);
    if (kind === 'boolean') out[key] = value === true;
    else if (kind === 'integer') out[key] = integer(flag, value as string | number, table.schema.properties[key] ?? {});
    else if (kind === 'list') {
      const list = asList(value as string | readonly string[]);
      if (list.length > 0) out[key] = CHECK_LISTS.has(key) ? checkIds(flag, list) : list;
    } else {
      const parse = PARSED[key];
      const schema = table.schema.properties[key] ?? {};
      const parsed = parse ? parse(String(value)) : schema.enum ? named(flag, String(value), schema) : String(value);
      if (parsed !== undefined) out[key] = parsed;
    }
  }
  return out as RunValues;
}
