import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv } from '../util/schema-compiler.js';
import { type ConfigProblem, explainConfigError } from './explain.js';
import { runOptionTable } from './options.js';

/** The parts of a property schema the starter file and the explanations read. */
export interface PropertySchema {
  description?: string;
  default?: unknown;
  examples?: unknown[];
  'x-expected'?: string;
}

export interface ConfigSchema {
  properties: Record<string, PropertySchema>;
  [keyword: string]: unknown;
}

const compiled = new WeakMap<object, ValidateFunction>();

/** spec/config.schema.json, read once (the option table reads the same document). */
export const configSchema = (): ConfigSchema => runOptionTable().schema as ConfigSchema;

function validator(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  // verbose: errors carry the offending value and schema, so explanations can show both.
  validate ??= createAjv({ allErrors: true, verbose: true, allowUnionTypes: true }).compile(schema);
  compiled.set(schema, validate);
  return validate;
}

/** Validate a parsed config object (against spec/config.schema.json, or a test's schema); every problem explained. */
export function validateConfig(value: unknown, schema: object = configSchema()): ConfigProblem[] {
  const validate = validator(schema);
  if (validate(value)) return [];
  const errors: ErrorObject[] = validate.errors ?? [];
  const problems = errors.map(explainConfigError);
  // allErrors can report one value twice (e.g. type and pattern); keep the first reason per path.
  const seen = new Set<string>();
  return problems.filter((p) => {
    const id = p.pointer || p.reason;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
