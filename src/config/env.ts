import { problemsError } from '../model/errors.js';
import type { RunValues } from '../model/run-values.js';
import type { ConfigProblem } from './explain.js';
import { problemLines } from './file.js';
import { envNameOf, type OptionKind, type OptionTable, runOptionTable } from './options.js';
import { validateConfig } from './schema.js';
import { splitLists, toRunValues } from './values.js';

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);

/** Environment text → the JSON type the schema expects; text that does not convert stays text, so the schema names the problem. */
function typed(kind: OptionKind, text: string): unknown {
  const value = text.trim();
  if (kind === 'integer') return /^-?\d+$/.test(value) ? Number(value) : text;
  if (kind === 'boolean') {
    if (TRUE.has(value.toLowerCase())) return true;
    if (FALSE.has(value.toLowerCase())) return false;
    return text;
  }
  return kind === 'path' || kind === 'list' ? value : text;
}

/** `/only/1` → `PROVCERT_ONLY (entry 2)`, `/timeout` → `PROVCERT_TIMEOUT`. */
function envWhere(problem: ConfigProblem, table: OptionTable): string {
  const [, key = '', index] = problem.pointer.split('/');
  if (!Object.hasOwn(table.kinds, key)) return 'environment:';
  return `environment variable ${envNameOf(key)}${index !== undefined ? ` (entry ${Number(index) + 1})` : ''}`;
}

/**
 * The PROVCERT_* variables that are set (empty counts as unset), validated like a config file and read into typed
 * values once; a problem names the variable. Paths are relative to the working directory.
 */
export function readEnvValues(env: NodeJS.ProcessEnv, cwd: string, table: OptionTable = runOptionTable()): RunValues {
  const values: Record<string, unknown> = {};
  for (const [key, kind] of Object.entries(table.kinds)) {
    const text = env[envNameOf(key)];
    if (text === undefined || text.trim() === '') continue;
    values[key] = typed(kind, text);
  }
  const split = splitLists(values, table.kinds);
  const problems = validateConfig(split, table.schema);
  if (problems.length > 0)
    throw problemsError(
      problemLines(problems, (p) => envWhere(p, table)),
      'the PROVCERT_* variables',
    );
  return toRunValues(split, { cwd, pathsFrom: cwd }, table.kinds);
}
