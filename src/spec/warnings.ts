import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { AnySchemaObject } from 'ajv';
import { describeValue } from './explain.js';
import { parseIsoTimestamp } from './timestamp.js';
import type { SchemaProblem } from './types.js';

/**
 * Spec keywords that never reject a payload but record a warning: what the contract allows yet leaves
 * ambiguous (a timestamp without an offset) or only suggests (reason codes). ajv validates synchronously,
 * so one collector per compiled contract is reset before and read after each validation.
 */
export const WARNING_KEYWORDS = ['x-warn-without-offset', 'x-suggested-values'] as const;

export interface WarningCollector {
  reset(): void;
  add(problem: SchemaProblem): void;
  /** The warnings since the last reset, each text once, in the order found. */
  take(): SchemaProblem[];
}

export function createWarningCollector(): WarningCollector {
  let found = new Map<string, SchemaProblem>();
  return {
    reset: () => {
      found = new Map();
    },
    add: (problem) => {
      if (!found.has(problem.text)) found.set(problem.text, problem);
    },
    take: () => [...found.values()],
  };
}

/** The part of ajv's data context a keyword reads (ajv does not export the type from its entry point). */
interface DataContext {
  instancePath: string;
}

const at = (pointer: string): string => pointer || '(root)';

/** Short printable values as they are (`CUSTOMER_CHANGED_MIND`); anything else quoted and capped. */
const shown = (value: string): string => (/^[\x21-\x7e]{1,60}$/.test(value) ? value : describeValue(value));

/** "Reason code" → "reason codes"; no title → "values". */
const pluralLabel = (parent: AnySchemaObject | undefined): string => {
  const title: unknown = parent?.['title'];
  return typeof title === 'string' && title !== '' ? `${title.toLowerCase()}s` : 'values';
};

/** Register the warning keywords on an ajv instance; they always validate and only feed the collector. */
export function addWarningKeywords(ajv: Ajv2020, collector: WarningCollector): void {
  ajv.addKeyword({
    keyword: 'x-warn-without-offset',
    type: 'string',
    schemaType: 'boolean',
    errors: false,
    validate: (enabled: unknown, data: string, _parent?: AnySchemaObject, cxt?: DataContext) => {
      if (enabled === true && parseIsoTimestamp(data)?.hasOffset === false) {
        const pointer = cxt?.instancePath ?? '';
        collector.add({ pointer, rule: 'offsetless-timestamp', text: `${at(pointer)} ${shown(data)} has no UTC offset; read as UTC (ambiguous)` });
      }
      return true;
    },
  });
  ajv.addKeyword({
    keyword: 'x-suggested-values',
    type: 'string',
    schemaType: 'array',
    errors: false,
    validate: (suggested: unknown[], data: string, parent?: AnySchemaObject, cxt?: DataContext) => {
      if (!suggested.includes(data)) {
        const pointer = cxt?.instancePath ?? '';
        const list = suggested.map(String).join(', ');
        collector.add({
          pointer,
          rule: 'suggested-values',
          text: `${at(pointer)} ${shown(data)} is not one of the contract's suggested ${pluralLabel(parent)} (${list})`,
        });
      }
      return true;
    },
  });
}
