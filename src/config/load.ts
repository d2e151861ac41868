import { dirname } from 'node:path';
import type { RunSources, RunValues } from '../model/run-values.js';
import type { ExpectedFailure } from '../model/waivers.js';
import { EXPECTED_FAILURES_KEY, parseExpectedFailures } from '../util/expected-failures.js';
import { readEnvValues } from './env.js';
import { locateConfig, readConfigFile } from './file.js';
import { ALLOW_OUTSIDE_PATHS_KEY, type OptionTable, runOptionTable } from './options.js';
import { toRunValues } from './values.js';

export interface LoadRunSourcesInput {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** --config FILE; a named file must exist. Without it, PROVCERT_CONFIG, else ./provcert.config.yaml if present. */
  configPath?: string | undefined;
  /** The options' table: spec/config.schema.json's unless a test gives its own. */
  table?: OptionTable;
  /**
   * Read a config file only when `configPath` names one: neither PROVCERT_CONFIG nor ./provcert.config.yaml
   * (`replay`, run where a report was received, must not take a file that came with it).
   */
  namedOnly?: boolean;
}

/** What the environment and the config file say, each read into typed values once (the flags are the cli's). */
export interface LoadedRunSources extends Required<Pick<RunSources, 'env' | 'file'>> {
  /** The config file's expectedFailures (spec/expected-failures.schema.json; empty without a file or the key). */
  expectedFailures: ExpectedFailure[];
}

/**
 * The PROVCERT_* environment and the config file as typed run values; merging them under the flags and over the
 * defaults is resolveRunConfig's. Any problem throws a UsageError (exit 2) naming the variable or the file's key.
 */
export async function loadRunSources(input: LoadRunSourcesInput): Promise<LoadedRunSources> {
  const table = input.table ?? runOptionTable();
  const location = locateConfig(input.cwd, input.env, input.configPath);
  const file = input.namedOnly && input.configPath === undefined ? undefined : await readConfigFile(location, table);
  const confinement =
    file?.[ALLOW_OUTSIDE_PATHS_KEY] === true ? undefined : { dir: dirname(location.path), label: location.label };
  const fromFile: RunValues = file
    ? toRunValues(file, { cwd: input.cwd, pathsFrom: dirname(location.path), confinement }, table.kinds)
    : {};
  return {
    env: readEnvValues(input.env, input.cwd, table),
    file: fromFile,
    expectedFailures: parseExpectedFailures(file?.[EXPECTED_FAILURES_KEY], location.label),
  };
}
