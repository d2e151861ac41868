import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { packageRoot } from '../util/package-root.js';
import { type ConfigProblem, explainConfigError } from './explain.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object's default.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const CONFIG_SCHEMA_PATH = join(packageRoot, 'spec', 'config.schema.json');

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
  const schema = JSON.parse(readFileSync(CONFIG_SCHEMA_PATH, 'utf8')) as ConfigSchema;
  // verbose: errors carry the offending value and schema, so explanations can show both.
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addVocabulary(['x-expected']);
  cached = { schema, validate: ajv.compile(schema) };
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
