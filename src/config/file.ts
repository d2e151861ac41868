import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { UsageError } from '../model/errors.js';
import { isRecord } from '../util/json.js';
import type { ConfigProblem } from './explain.js';
import { CONFIG_ENV, DEFAULT_CONFIG_FILE } from './options.js';
import { validateConfig } from './schema.js';
import { splitLists } from './values.js';
import { EXPECTED_FAILURES_KEY, parseExpectedFailures } from './waivers.js';

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

/** One clear line for the first problem; the others follow in the hint so none is lost. */
export function problemsError(
  prefix: string,
  problems: readonly ConfigProblem[],
  where: (p: ConfigProblem) => string,
): UsageError {
  const lines = problems.map((p) => (where(p) ? `${where(p)} ${p.reason}` : p.reason));
  const [first = 'is invalid', ...rest] = lines;
  return new UsageError(`${prefix}${first}`, rest.length > 0 ? `also: ${rest.join('; ')}` : undefined);
}

function parseYaml(text: string, label: string): unknown {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter });
  const error = doc.errors[0];
  if (error) {
    const pos = lineCounter.linePos(error.pos[0]);
    const at = `:${pos.line}:${pos.col}`;
    throw new UsageError(`${label}${at}: invalid YAML: ${error.message.split('\n')[0] ?? 'syntax error'}`);
  }
  return doc.toJS() as unknown;
}

/**
 * Read, parse and validate a config file. A missing default file is an empty config; a missing file
 * the user named is an error. Returns the validated object (keys as in the schema) or undefined.
 */
export async function readConfigFile(location: ConfigLocation): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await readFile(location.path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !location.explicit) return undefined;
    if (code === 'ENOENT')
      throw new UsageError(`config file ${location.label} not found`, 'create one with: provcert init');
    throw new UsageError(`cannot read config file ${location.label} (${code ?? 'error'})`);
  }
  const parsed = parseYaml(text, location.label);
  if (parsed === null || parsed === undefined) return {};
  if (!isRecord(parsed)) {
    throw new UsageError(
      `${location.label}: must be a mapping of option: value (e.g. "baseUrl: https://…"), found ${Array.isArray(parsed) ? 'a list' : `a ${typeof parsed}`}`,
    );
  }
  const values = splitLists(parsed);
  // Waivers first: their reader names the entry and the fix ("expectedFailures[1].until: … is not a date").
  parseExpectedFailures(values[EXPECTED_FAILURES_KEY], location.label);
  const problems = validateConfig(values);
  if (problems.length > 0) throw problemsError(`${location.label}: `, problems, (p) => p.pointer);
  if (values['credentialEnv'] !== undefined && values['credentialFile'] !== undefined) {
    throw new UsageError(`${location.label}: set credentialEnv or credentialFile, not both`);
  }
  return values;
}
