import { resolve } from 'node:path';
import { problemsError, UsageError } from '../model/errors.js';
import { DataFileError, type DataText, lineOf, readDataFile } from '../util/data-file.js';
import { EXPECTED_FAILURES_KEY, parseExpectedFailures } from '../util/expected-failures.js';
import { isRecord } from '../util/json.js';
import type { ConfigProblem } from './explain.js';
import { CONFIG_ENV, DEFAULT_CONFIG_FILE, type OptionTable, runOptionTable } from './options.js';
import { validateConfig } from './schema.js';
import { splitLists } from './values.js';

/** A located config file: the name shown in messages, its absolute path, and whether the user named it. */
export interface ConfigLocation {
  label: string;
  path: string;
  explicit: boolean;
}

/** --config, else PROVCERT_CONFIG, else provcert.config.yaml in the working directory (optional). */
export function locateConfig(cwd: string, env: NodeJS.ProcessEnv, configPath?: string): ConfigLocation {
  const named = configPath ?? (env[CONFIG_ENV] || undefined);
  if (named !== undefined) return { label: named, path: resolve(cwd, named), explicit: true };
  return { label: DEFAULT_CONFIG_FILE, path: resolve(cwd, DEFAULT_CONFIG_FILE), explicit: false };
}

/** Each problem as one line, named where it is (`provcert.config.yaml:3: /timeout must be at least 100`). */
export const problemLines = (problems: readonly ConfigProblem[], where: (p: ConfigProblem) => string): string[] =>
  problems.map((p) => (where(p) ? `${where(p)} ${p.reason}` : p.reason));

/**
 * Read, parse and validate a config file. A missing default file is an empty config; a missing file
 * the user named is an error. Returns the validated object (keys as in the schema) or undefined.
 */
export async function readConfigFile(
  location: ConfigLocation,
  table: OptionTable = runOptionTable(),
): Promise<Record<string, unknown> | undefined> {
  let read: DataText;
  try {
    read = await readDataFile(location.path, { label: location.label, format: 'yaml' });
  } catch (e) {
    if (!(e instanceof DataFileError)) throw e;
    if (e.kind === 'not-found' && !location.explicit) return undefined;
    if (e.kind === 'not-found')
      throw new UsageError(`config file ${location.label} not found`, 'create one with: provcert init');
    throw e;
  }
  const parsed = read.value;
  if (parsed === null || parsed === undefined) return {};
  if (!isRecord(parsed)) {
    throw new UsageError(
      `${location.label}: must be a mapping of option: value (e.g. "baseUrl: https://…"), found ${Array.isArray(parsed) ? 'a list' : `a ${typeof parsed}`}`,
    );
  }
  const values = splitLists(parsed, table.kinds);
  // Waivers first: their reader names the entry and the fix ("expectedFailures[1].until: … is not a date").
  parseExpectedFailures(values[EXPECTED_FAILURES_KEY], location.label);
  const problems = validateConfig(values, table.schema);
  // Each problem names the file and its line (`provcert.config.yaml:3: /timeout must be at least 100`).
  const where = (p: ConfigProblem): string => {
    const line = lineOf(read, p.pointer, p.key);
    return `${location.label}${line === undefined ? '' : `:${line}`}:${p.pointer ? ` ${p.pointer}` : ''}`;
  };
  if (problems.length > 0) throw problemsError(problemLines(problems, where), location.label);
  if (values['credentialEnv'] !== undefined && values['credentialFile'] !== undefined) {
    throw new UsageError(`${location.label}: set credentialEnv or credentialFile, not both`);
  }
  return values;
}
