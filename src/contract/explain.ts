import type { ErrorObject } from 'ajv';
import { describeValue } from '../util/describe-value.js';
import { MAX_COUNTED_ERRORS } from './error-cap.js';
import { NON_EMPTY_KEYWORD } from './non-empty.js';
import { ISO_TIMESTAMP_FORMAT } from './timestamp.js';
import type { SchemaProblem } from './types.js';

/** How many problems one payload reports; the rest are counted, not listed. */
const MAX_PROBLEMS = 12;

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
    case NON_EMPTY_KEYWORD:
      text = `${at(pointer)} is empty (found ${describeValue(e.data)}): the required field "${pointer.split('/').at(-1) ?? ''}" must carry a value, not an empty or blank string`;
      break;
    case 'format':
      text = `${at(pointer)} must be a valid ${FORMAT_NAMES[String(params['format'])] ?? String(params['format'])} (found ${describeValue(e.data)})`;
      break;
    default:
      text = `${at(pointer)} ${e.message ?? 'is invalid'} (found ${describeValue(e.data)})`;
  }
  return { pointer, rule: e.keyword, text };
}

/** `… and 19,990 more problems`; `atLeast` when the validator stopped counting (error-cap.ts). */
export const moreProblems = (count: number, atLeast = false): string =>
  `… and ${atLeast ? 'at least ' : ''}${count.toLocaleString('en-US')} more problem${count === 1 ? '' : 's'}${atLeast ? ` (counting stops at ${MAX_COUNTED_ERRORS.toLocaleString('en-US')})` : ''}`;

/**
 * Turn ajv errors into one line per problem. Errors of combinators (anyOf/oneOf) are dropped when a
 * more specific error at the same place explains it; duplicates are removed; the list is capped.
 * `total` is how many errors the validator found when it kept only some (error-cap.ts): the ones it did
 * not keep are counted in the last line. Linear in the number of errors.
 */
export function explainErrors(
  errors: readonly ErrorObject[],
  total: number = errors.length,
  max = MAX_PROBLEMS,
): SchemaProblem[] {
  const notKept = Math.max(0, total - errors.length);
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
  const more = Math.max(0, problems.length - max) + notKept;
  if (more === 0) return problems;
  const shown = problems.slice(0, max);
  shown.push({ pointer: '', rule: 'more', text: moreProblems(more, total >= MAX_COUNTED_ERRORS) });
  return shown;
}

/** One string per problem, for messages and details. */
export const problemTexts = (problems: readonly SchemaProblem[]): string[] => problems.map((p) => p.text);
