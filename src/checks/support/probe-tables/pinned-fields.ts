import type { OperationInfo, PinnedField } from '../../../contract/types.js';
import type { RequirementId } from '../../../model/findings.js';

/**
 * The pinned-field probe table: every request body field the spec pins to one value (`const`, or an `enum` of one)
 * × every other JSON value, the ones a lenient parser takes for it first (`"true"`, `1`) and every other JSON type.
 * Pure data: `action-validation` sends its rows for POST /actions; a field pinned in spec/openapi.yaml gets its
 * probes from here.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One value sent instead of the pinned one, and how a message names it. */
export interface PinnedValue {
  value: Json;
  describe: string;
}

const show = (value: Json): string => JSON.stringify(value);

/** Every JSON value but `pinned` a sloppy parser may still read as it, then one of every other JSON type. */
export function otherValues(pinned: PinnedField['value']): PinnedValue[] {
  const lenient: Json[] =
    typeof pinned === 'boolean'
      ? [!pinned, String(pinned), String(!pinned), pinned ? 1 : 0, pinned ? 0 : 1, String(pinned).toUpperCase()]
      : typeof pinned === 'number'
        ? [String(pinned), pinned + 1, true]
        : typeof pinned === 'string'
          ? [pinned.toLowerCase(), pinned.toUpperCase(), ` ${pinned}`, `${pinned} `, '']
          : ['null', 0, false];
  const everyType: Json[] = [null, [], {}, [pinned], { value: pinned }, ''];
  const seen = new Set<string>([show(pinned)]);
  const values: PinnedValue[] = [];
  for (const value of [...lenient, ...everyType]) {
    const key = show(value);
    if (seen.has(key)) continue;
    seen.add(key);
    values.push({ value, describe: key });
  }
  return values;
}

/** How the contract says a wrong value of one pinned field is refused, and the rule an acceptance breaks. */
export interface PinnedRule {
  /** The code that refuses another value of the field's own type. */
  code: string;
  /** Codes that also refuse a value of another JSON type (a validation failure as well). */
  otherTypeCodes: readonly string[];
  requirement: RequirementId;
  /** The contract's words, for the message. */
  says: string;
}

/**
 * The rule of each pinned field, by operation and field path. "Requires `userConfirmed: true`; otherwise rejected
 * with ACTION_NOT_CONFIRMED": a value of another type is also a validation failure (VALIDATION_ERROR,
 * INVALID_ARGUMENT), and the contract gives ACTION_NOT_CONFIRMED no status, so any 4xx with one of them refuses it.
 */
export const PINNED_RULES: Readonly<Record<string, PinnedRule>> = {
  'POST /actions userConfirmed': {
    code: 'ACTION_NOT_CONFIRMED',
    otherTypeCodes: ['VALIDATION_ERROR', 'INVALID_ARGUMENT'],
    requirement: 'ACTION-NOT-CONFIRMED',
    says: 'userConfirmed must be true',
  },
};

export const pinnedRuleKey = (operation: string, field: PinnedField): string => `${operation} ${field.path.join('.')}`;

/** The JSON type of a value, telling arrays and null from objects. */
const jsonType = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** The codes that refuse `sent` rightly: the field's own code, and for a value of another type the validation codes. */
export function refusalCodes(rule: PinnedRule, field: PinnedField, sent: PinnedValue): readonly string[] {
  return jsonType(sent.value) === jsonType(field.value) ? [rule.code] : [rule.code, ...rule.otherTypeCodes];
}

/** One row: a pinned field of an operation sent with another value. */
export interface PinnedProbe {
  operation: string;
  field: PinnedField;
  sent: PinnedValue;
  /** Undefined when the table has no rule for the field yet (the check then says it was not tested). */
  rule: PinnedRule | undefined;
}

/** Every pinned field of the operation × every other value. */
export function pinnedProbeTable(operation: OperationInfo): PinnedProbe[] {
  return operation.pinned.flatMap((field) =>
    otherValues(field.value).map((sent) => ({
      operation: operation.key,
      field,
      sent,
      rule: PINNED_RULES[pinnedRuleKey(operation.key, field)],
    })),
  );
}

/** A body with the field at `path` set to `value` (a copy; the objects on the way are copied too). */
export function withField(
  body: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined) return body;
  const inner = body[head];
  const next =
    rest.length === 0
      ? value
      : withField(
          typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? { ...inner } : {},
          rest,
          value,
        );
  return { ...body, [head]: next };
}
