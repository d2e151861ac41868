import type { RunValues } from '../model/run-values.js';
import { specSchema } from '../util/spec-schema.js';

/** Every option a config file or PROVCERT_* variable can set: the `run` flags plus the report flags. */
export type OptionKey = keyof RunValues;

/** How a value is written in YAML/env and read into its typed value. */
export type OptionKind = 'string' | 'integer' | 'boolean' | 'list' | 'path';

/** What the readers need of an option's schema: its type, bounds and whether it names a file. */
export interface OptionSchema {
  type?: string | string[];
  minimum?: number;
  maximum?: number;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  items?: { enum?: unknown[]; $ref?: string };
  'x-path'?: boolean;
  /** The value's name in the flag's help (`--timeout <ms>`); without it, named by its kind. */
  'x-flag-value'?: string;
  /** A config file key only (expectedFailures, allowPathsOutsideConfigDir): no flag, no variable, no run setting. */
  'x-file-only'?: boolean;
}

/** Config file only: report paths may leave the config file's folder (absolute or ../ paths). */
export const ALLOW_OUTSIDE_PATHS_KEY = 'allowPathsOutsideConfigDir';

/**
 * The run options as spec/config.schema.json describes them (or a schema a test gives): each key's kind comes from
 * its schema, so an option added to the schema is read from flags, environment and file with no table to edit.
 */
export interface OptionTable {
  schema: { properties: Record<string, OptionSchema>; [keyword: string]: unknown };
  kinds: Readonly<Record<string, OptionKind>>;
}

function kindOf(schema: OptionSchema): OptionKind {
  const types = [schema.type ?? []].flat();
  if (types.includes('array')) return 'list';
  if (types.includes('boolean')) return 'boolean';
  if (types.length === 1 && types[0] === 'integer') return 'integer';
  return schema['x-path'] === true ? 'path' : 'string';
}

export function optionTable(schema: OptionTable['schema']): OptionTable {
  const kinds = Object.fromEntries(
    Object.entries(schema.properties)
      .filter(([, property]) => property['x-file-only'] !== true)
      .map(([key, property]) => [key, kindOf(property)]),
  );
  return { schema, kinds };
}

let specOptions: OptionTable | undefined;

/** The table of spec/config.schema.json. */
export const runOptionTable = (): OptionTable =>
  (specOptions ??= optionTable(specSchema('config.schema.json') as OptionTable['schema']));

export const OPTION_KEYS = Object.keys(runOptionTable().kinds) as OptionKey[];

/** Every key of a config file: the options, expectedFailures and the path opt-in (config file only: no flag, no variable). */
export const CONFIG_FILE_KEYS: readonly string[] = Object.keys(runOptionTable().schema.properties);

export const isOptionKey = (key: string): key is OptionKey => Object.hasOwn(runOptionTable().kinds, key);

/** baseUrl → PROVCERT_BASE_URL */
export const envNameOf = (key: string): string => `PROVCERT_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;

/** baseUrl → --base-url */
export const flagNameOf = (key: string): string => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Names the config file by default, looked up in the working directory. */
export const DEFAULT_CONFIG_FILE = 'provcert.config.yaml';

/** Environment variable naming a config file (like --config, but lower in precedence). */
export const CONFIG_ENV = 'PROVCERT_CONFIG';
