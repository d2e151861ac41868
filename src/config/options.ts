import { FILE_REPORTER_NAMES, type FileReporterName } from '../model/reporter-names.js';
import type { RawRunOptions, ReportFlags } from './flags.js';

/** Every option a config file or PROVCERT_* variable can set: the `run` flags plus the report flags. */
export type RunOptionFlags = RawRunOptions & ReportFlags;
export type OptionKey = keyof RunOptionFlags;

/** How a value is written in YAML/env and handed to commander-style raw options. */
export type OptionKind = 'string' | 'integer' | 'boolean' | 'list' | 'path';

/** The option table; spec/config.schema.json describes the same keys (a test keeps them equal). */
export const OPTION_KINDS: Readonly<Record<OptionKey, OptionKind>> = {
  baseUrl: 'string',
  auth: 'string',
  credentialEnv: 'string',
  credentialFile: 'path',
  profile: 'string',
  capabilities: 'list',
  fulfillment: 'string',
  local: 'boolean',
  webhookPort: 'integer',
  webhookHost: 'string',
  webhookSecretEnv: 'string',
  webhookTimeout: 'integer',
  timeout: 'integer',
  maxExpiryWait: 'integer',
  only: 'list',
  skip: 'list',
  seed: 'string',
  explore: 'integer',
  strict: 'boolean',
  concurrency: 'integer',
  // A file reporter's option is a path (json, junit, markdown, html).
  ...(Object.fromEntries(FILE_REPORTER_NAMES.map((name) => [name, 'path'])) as Record<FileReporterName, 'path'>),
  reporter: 'list',
};

export const OPTION_KEYS = Object.keys(OPTION_KINDS) as OptionKey[];

/** Config file only: report paths may leave the config file's folder (absolute or ../ paths). */
export const ALLOW_OUTSIDE_PATHS_KEY = 'allowPathsOutsideConfigDir';

/** Every key of a config file: the options, expectedFailures and the path opt-in (config file only: no flag, no variable). */
export const CONFIG_FILE_KEYS: readonly string[] = [...OPTION_KEYS, 'expectedFailures', ALLOW_OUTSIDE_PATHS_KEY];

export const isOptionKey = (key: string): key is OptionKey => Object.hasOwn(OPTION_KINDS, key);

/** baseUrl → PROVCERT_BASE_URL */
export const envNameOf = (key: OptionKey): string => `PROVCERT_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;

/** baseUrl → --base-url */
export const flagNameOf = (key: OptionKey): string => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Names the config file by default, looked up in the working directory. */
export const DEFAULT_CONFIG_FILE = 'provcert.config.yaml';

/** Environment variable naming a config file (like --config, but lower in precedence). */
export const CONFIG_ENV = 'PROVCERT_CONFIG';
