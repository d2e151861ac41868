import { describeValue } from '../util/describe-value.js';
import { parseIsoTimestamp } from './timestamp.js';
import type { SchemaProblem } from './types.js';

/**
 * What the warning keywords call while a validator runs (the compiled code of both the run-time and the
 * precompiled validators calls these functions). Validation is synchronous, so one collector for the
 * process is enough: `beginWarnings()` before a validation, `takeWarnings()` after it.
 * This module must stay free of ajv: the precompiled validators import it at run time.
 */

// Created on the first warning only: most validations find none, and this runs once per validation.
let found: Map<string, SchemaProblem> | undefined;

export function beginWarnings(): void {
  found = undefined;
}

/** Shared by every result without problems or warnings (most of them): frozen, so no caller can fill it. */
export const NO_PROBLEMS: readonly SchemaProblem[] = Object.freeze([]);

/** The warnings since the last beginWarnings(), each text once, in the order found. */
export function takeWarnings(): readonly SchemaProblem[] {
  if (found === undefined) return NO_PROBLEMS;
  const taken = [...found.values()];
  found = undefined;
  return taken;
}

function add(problem: SchemaProblem): void {
  found ??= new Map();
  if (!found.has(problem.text)) found.set(problem.text, problem);
}

const at = (pointer: string): string => pointer || '(root)';

/** Short printable values as they are (`CUSTOMER_CHANGED_MIND`); anything else quoted and capped. */
const shown = (value: string): string => (/^[\x21-\x7e]{1,60}$/.test(value) ? value : describeValue(value));

/** `x-warn-without-offset: true`: a timestamp that names no UTC offset. */
export function warnIfOffsetless(data: string, pointer: string): void {
  if (parseIsoTimestamp(data)?.hasOffset === false) {
    add({
      pointer,
      rule: 'offsetless-timestamp',
      text: `${at(pointer)} ${shown(data)} has no UTC offset; read as UTC (ambiguous)`,
    });
  }
}

/** `x-suggested-values`: a value outside the list the contract only suggests; `label` names the values ("reason codes"). */
export function warnIfNotSuggested(data: string, pointer: string, suggested: readonly unknown[], label: string): void {
  if (suggested.includes(data)) return;
  const list = suggested.map(String).join(', ');
  add({
    pointer,
    rule: 'suggested-values',
    text: `${at(pointer)} ${shown(data)} is not one of the contract's suggested ${label} (${list})`,
  });
}
