import { isAbsolute, relative, resolve } from 'node:path';
import { UsageError } from '../model/errors.js';
import { FILE_REPORTER_NAMES } from '../model/reporter-names.js';
import { ALLOW_OUTSIDE_PATHS_KEY, isOptionKey, OPTION_KINDS, type OptionKey, type RunOptionFlags } from './options.js';

const isFileReporterName = (key: string): boolean => (FILE_REPORTER_NAMES as readonly string[]).includes(key);

/** A comma-separated list written as one string becomes a list, so each entry is validated by itself. */
export function splitLists(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const [key, value] of Object.entries(values)) {
    if (isOptionKey(key) && OPTION_KINDS[key] === 'list' && typeof value === 'string') {
      out[key] = value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    }
  }
  return out;
}

/** Where a config file's report paths must stay, and the file's name for the refusal. */
export interface PathConfinement {
  dir: string;
  label: string;
}

/**
 * A report path from a config file that leaves the file's folder (absolute, or ../): refused in one line, so a
 * config file from elsewhere (a repository, a download) cannot overwrite files outside its own folder.
 */
function confined(key: OptionKey, value: string, confinement: PathConfinement): void {
  if (value === '-' || !isFileReporterName(key)) return;
  const rel = relative(confinement.dir, resolve(confinement.dir, value));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || isAbsolute(value))
    throw new UsageError(
      `${confinement.label}: ${key}: ${value} is outside the config file's folder; write the report inside it, or set ${ALLOW_OUTSIDE_PATHS_KEY}: true in the config file`,
    );
}

/**
 * Validated config values → raw options as commander would hand them over (strings; `local` boolean).
 * `pathsFrom` is the directory relative paths are resolved against, when it differs from the cwd; with
 * `confinement`, report paths must stay inside that folder.
 */
export function toRawOptions(
  values: Record<string, unknown>,
  cwd: string,
  pathsFrom: string,
  confinement?: PathConfinement,
): Partial<RunOptionFlags> {
  const out: Partial<Record<OptionKey, string | boolean>> = {};
  for (const [key, value] of Object.entries(values)) {
    if (!isOptionKey(key) || value === undefined || value === null) continue;
    switch (OPTION_KINDS[key]) {
      case 'boolean':
        out[key] = value === true;
        break;
      case 'list':
        out[key] = Array.isArray(value) ? value.map(String).join(',') : String(value);
        break;
      case 'path': {
        const path = String(value);
        if (confinement) confined(key, path, confinement);
        // Keep cwd-relative paths as written (reports name them as the user did).
        out[key] = pathsFrom === cwd ? path : relativeIfInside(resolveFilePath(path, pathsFrom), cwd);
        break;
      }
      default:
        out[key] = String(value);
    }
  }
  return out as Partial<RunOptionFlags>;
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
