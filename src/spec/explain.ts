import type { ErrorObject } from 'ajv';
import { ISO_TIMESTAMP_FORMAT } from './timestamp.js';
import type { SchemaProblem } from './types.js';

/** How many problems one payload reports; the rest are counted, not listed. */
const MAX_PROBLEMS = 12;

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** `string "12.50"`, `null`, `object {…}` — short enough for one line. */
export function describeValue(value: unknown): string {
  const type = typeName(value);
  if (value === null || value === undefined) return type;
  if (type === 'object') return 'object {…}';
  if (type === 'array') return `array of ${(value as unknown[]).length}`;
  const json = JSON.stringify(value);
  return `${type} ${json.length > 60 ? `${json.slice(0, 57)}…"` : json}`;
}

const at = (pointer: string): string => pointer || '(root)';

/** Format names people read in messages; others are shown as the spec names them. */
const FORMAT_NAMES: Record<string, string> = { [ISO_TIMESTAMP_FORMAT]: 'ISO 8601 date-time' };

function explainOne(e: ErrorObject): SchemaProblem {
  const pointer = e.instancePath;
  const params = e.params as Record<string, unknown>;
  let text: string;
  switch (e.keyword) {
    case 'required':
      text = `${at(pointer)} is missing required field "${String(params['missingProperty'])}"`;
      break;
    case 'type':
      text = `${at(pointer)} must be ${String(params['type'])} (found ${describeValue(e.data)})`;
      break;
    case 'enum':
      text = `${at(pointer)} must be one of ${(params['allowedValues'] as unknown[]).map(String).join(', ')} (found ${describeValue(e.data)})`;
      break;
    case 'const':
      text = `${at(pointer)} must be ${JSON.stringify(params['allowedValue'])} (found ${describeValue(e.data)})`;
      break;
    case 'format':
      text = `${at(pointer)} must be a valid ${FORMAT_NAMES[String(params['format'])] ?? String(params['format'])} (found ${describeValue(e.data)})`;
      break;
    default:
      text = `${at(pointer)} ${e.message ?? 'is invalid'} (found ${describeValue(e.data)})`;
  }
  return { pointer, rule: e.keyword, text };
}

/**
 * Turn ajv errors into one line per problem. Errors of combinators (anyOf/oneOf) are dropped when a
 * more specific error at the same place explains it; duplicates are removed; the list is capped.
 */
export function explainErrors(errors: readonly ErrorObject[], max = MAX_PROBLEMS): SchemaProblem[] {
  const specific = errors.filter((e) => !['anyOf', 'oneOf', 'allOf', 'if', 'not'].includes(e.keyword));
  const chosen = specific.length > 0 ? specific : errors;
  const seen = new Set<string>();
  const problems: SchemaProblem[] = [];
  for (const e of chosen) {
    const p = explainOne(e);
    if (seen.has(p.text)) continue;
    seen.add(p.text);
    problems.push(p);
  }
  if (problems.length <= max) return problems;
  const shown = problems.slice(0, max);
  shown.push({ pointer: '', rule: 'more', text: `… and ${problems.length - max} more problems` });
  return shown;
}

/** One string per problem, for messages and details. */
export const problemTexts = (problems: readonly SchemaProblem[]): string[] => problems.map((p) => p.text);
