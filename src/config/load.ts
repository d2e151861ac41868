import { dirname } from 'node:path';
import type { ExpectedFailure } from '../model/waivers.js';
import { readEnvOptions } from './env.js';
import { locateConfig, readConfigFile } from './file.js';
import { ALLOW_OUTSIDE_PATHS_KEY, OPTION_KEYS, type OptionKey, type RunOptionFlags } from './options.js';
import { toRawOptions } from './values.js';
import { EXPECTED_FAILURES_KEY, parseExpectedFailures } from './waivers.js';

export interface LoadRunOptionsInput<F extends RunOptionFlags> {
  /** The flags commander parsed (unset options undefined). Extra properties pass through untouched. */
  flags: F;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** --config FILE; a named file must exist. Without it, PROVCERT_CONFIG, else ./provcert.config.yaml if present. */
  configPath?: string;
}

/** Where the credential comes from is one choice: a higher source setting either key replaces both below it. */
const CREDENTIAL_KEYS: readonly OptionKey[] = ['credentialEnv', 'credentialFile'];

type Layer = Partial<RunOptionFlags>;

/** Highest layer first; each key takes the first defined value. */
function mergeLayers<F extends RunOptionFlags>(flags: F, lower: readonly Layer[]): F {
  const layers: readonly Layer[] = [flags, ...lower];
  const merged = { ...flags } as Record<string, unknown>;
  for (const key of OPTION_KEYS) {
    if (CREDENTIAL_KEYS.includes(key)) continue;
    const from = layers.find((layer) => layer[key] !== undefined);
    if (from) merged[key] = from[key];
  }
  const credentialLayer = layers.find((layer) => CREDENTIAL_KEYS.some((key) => layer[key] !== undefined));
  for (const key of CREDENTIAL_KEYS) {
    if (credentialLayer?.[key] !== undefined) merged[key] = credentialLayer[key];
    else delete merged[key];
  }
  return merged as F;
}

/**
 * The `run` options merged from flags > PROVCERT_* environment > config file; defaults stay unset
 * (resolveRunOptions applies them). Any config problem throws a UsageError (exit 2) naming the key.
 */
export async function loadRunOptions<F extends RunOptionFlags>(input: LoadRunOptionsInput<F>): Promise<F> {
  return (await loadRunSettings(input)).options;
}

/**
 * loadRunOptions, and what only the config file can set: its expectedFailures (spec/expected-failures.schema.json;
 * empty without a file or without the key).
 */
export async function loadRunSettings<F extends RunOptionFlags>(
  input: LoadRunOptionsInput<F>,
): Promise<{ options: F; expectedFailures: ExpectedFailure[] }> {
  const location = locateConfig(input.cwd, input.env, input.configPath);
  const file = await readConfigFile(location);
  const confinement =
    file?.[ALLOW_OUTSIDE_PATHS_KEY] === true ? undefined : { dir: dirname(location.path), label: location.label };
  const fromFile = file ? toRawOptions(file, input.cwd, dirname(location.path), confinement) : {};
  const fromEnv = toRawOptions(readEnvOptions(input.env), input.cwd, input.cwd);
  return {
    options: mergeLayers(input.flags, [fromEnv, fromFile]),
    expectedFailures: parseExpectedFailures(file?.[EXPECTED_FAILURES_KEY], location.label),
  };
}
