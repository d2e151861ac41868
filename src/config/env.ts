import type { ConfigProblem } from './explain.js';
import { problemsError } from './file.js';
import { envNameOf, isOptionKey, OPTION_KEYS, OPTION_KINDS } from './options.js';
import { validateConfig } from './schema.js';
import { splitLists } from './values.js';

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);

/** Environment text → the JSON type the schema expects; text that does not convert stays text, so the schema names the problem. */
function typed(kind: (typeof OPTION_KINDS)[keyof typeof OPTION_KINDS], text: string): unknown {
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
function envWhere(problem: ConfigProblem): string {
  const [, key = '', index] = problem.pointer.split('/');
  if (!isOptionKey(key)) return 'environment:';
  return `environment variable ${envNameOf(key)}${index !== undefined ? ` (entry ${Number(index) + 1})` : ''}`;
}

/** The PROVCERT_* variables that are set (empty counts as unset), converted and validated like a config file. */
export function readEnvOptions(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of OPTION_KEYS) {
    const text = env[envNameOf(key)];
    if (text === undefined || text.trim() === '') continue;
    values[key] = typed(OPTION_KINDS[key], text);
  }
  const split = splitLists(values);
  const problems = validateConfig(split);
  if (problems.length > 0) throw problemsError('', problems, envWhere);
  return split;
}
