import { isAbsolute, relative, resolve } from 'node:path';
import { parseAuthMethod } from '../model/auth-method.js';
import { UsageError } from '../model/errors.js';
import { FILE_REPORTER_NAMES } from '../model/reporter-names.js';
import type { RunValues } from '../model/run-values.js';
import { ALLOW_OUTSIDE_PATHS_KEY, type OptionTable, runOptionTable } from './options.js';
import { realWritePath } from './real-path.js';

const isFileReporterName = (key: string): boolean => (FILE_REPORTER_NAMES as readonly string[]).includes(key);

/** A comma-separated list written as one string becomes a list, so each entry is validated by itself. */
export function splitLists(
  values: Record<string, unknown>,
  kinds: OptionTable['kinds'] = runOptionTable().kinds,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const [key, value] of Object.entries(values)) {
    if (kinds[key] === 'list' && typeof value === 'string') out[key] = splitList(value);
  }
  return out;
}

export const splitList = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Where a config file's report paths must stay, and the file's name for the refusal. */
export interface PathConfinement {
  dir: string;
  label: string;
}

/**
 * A report path from a config file that leaves the file's folder (absolute, or ../, or through a symlink): refused
 * in one line, so a config file from elsewhere (a repository, a download) cannot overwrite files outside its own
 * folder. Both sides are compared as real paths (symlinks resolved, real-path.ts): a link committed beside the file
 * leads wherever it points.
 */
function confined(key: string, value: string, confinement: PathConfinement): void {
  if (value === '-' || !isFileReporterName(key)) return;
  const lexical = relative(confinement.dir, resolve(confinement.dir, value));
  const real = relative(realWritePath(confinement.dir), realWritePath(resolve(confinement.dir, value)));
  const outside = (rel: string): boolean => rel === '' || rel.startsWith('..') || isAbsolute(rel);
  if (outside(lexical) || outside(real) || isAbsolute(value)) {
    const via = outside(lexical) || isAbsolute(value) ? '' : ' (through a symlink)';
    throw new UsageError(
      `${confinement.label}: ${key}: ${value} is outside the config file's folder${via}; write the report inside it, or set ${ALLOW_OUTSIDE_PATHS_KEY}: true in the config file`,
    );
  }
}

/** Options whose schema-valid text still has one spelling to settle: auth aliases, profile case. */
const SPELLED: Readonly<Record<string, (text: string) => unknown>> = {
  auth: parseAuthMethod,
  profile: (text) => text.toUpperCase(),
};

/** Where a file's values are read from: relative paths resolve against `pathsFrom` (the file's folder). */
export interface ValuesOrigin {
  cwd: string;
  pathsFrom: string;
  /** With it, report paths must stay inside that folder. */
  confinement?: PathConfinement | undefined;
}

/**
 * Schema-validated values (a config file's, PROVCERT_* variables', a fleet entry's) → typed run values, once: numbers
 * stay numbers, lists stay lists. Paths are resolved against the file that names them.
 */
export function toRunValues(
  values: Record<string, unknown>,
  origin: ValuesOrigin,
  kinds: OptionTable['kinds'] = runOptionTable().kinds,
): RunValues {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const kind = kinds[key];
    if (kind === undefined || value === undefined || value === null) continue;
    switch (kind) {
      case 'boolean':
        out[key] = value === true;
        break;
      case 'integer':
        out[key] = value;
        break;
      case 'list': {
        const list = Array.isArray(value) ? value.map(String) : splitList(String(value));
        // An empty list selects nothing, as an unset option does (not "run no check").
        if (list.length > 0) out[key] = list;
        break;
      }
      case 'path': {
        const path = String(value);
        if (origin.confinement) confined(key, path, origin.confinement);
        // Keep cwd-relative paths as written (reports name them as the user did).
        out[key] =
          origin.pathsFrom === origin.cwd
            ? path
            : relativeIfInside(resolveFilePath(path, origin.pathsFrom), origin.cwd);
        break;
      }
      default:
        out[key] = SPELLED[key]?.(String(value)) ?? String(value);
    }
  }
  return out as RunValues;
}

function relativeIfInside(path: string, cwd: string): string {
  if (path === '-') return path;
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') ? rel : path;
}

/** Paths in a file are relative to that file, not to wherever provcert happens to run. */
function resolveFilePath(value: string, configDir: string): string {
  return value === '-' || isAbsolute(value) ? value : resolve(configDir, value);
}
