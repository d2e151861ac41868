import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv, specSchema } from '../util/schema-compiler.js';
import { type ConfigProblem, explainConfigError } from './explain.js';

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

let cached: { schema: ConfigSchema; validate: ValidateFunction } | undefined;

function compiled(): { schema: ConfigSchema; validate: ValidateFunction } {
  if (cached) return cached;
  const schema = specSchema('config.schema.json') as ConfigSchema;
  // verbose: errors carry the offending value and schema, so explanations can show both.
  const validate = createAjv({ allErrors: true, verbose: true, allowUnionTypes: true }).compile(schema);
  cached = { schema, validate };
  return cached;
}

export const configSchema = (): ConfigSchema => compiled().schema;

/** Validate a parsed config object; every problem explained as key path + reason. */
export function validateConfig(value: unknown): ConfigProblem[] {
  const { validate } = compiled();
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
