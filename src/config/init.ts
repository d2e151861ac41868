import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../model/errors.js';
import { DEFAULT_CONFIG_FILE } from './options.js';
import { renderStarterConfig } from './starter.js';

export interface InitResult {
  /** The path as the user named it (or the default name). */
  label: string;
  overwritten: boolean;
}

/** Write the starter config; refuses to replace an existing file unless `force`. */
export async function writeStarterConfig(cwd: string, options: { force: boolean; path?: string }): Promise<InitResult> {
  const label = options.path ?? DEFAULT_CONFIG_FILE;
  const path = resolve(cwd, label);
  try {
    // 'wx' fails atomically when the file exists, so two inits cannot race past the check.
    await writeFile(path, renderStarterConfig(), { encoding: 'utf8', flag: options.force ? 'w' : 'wx' });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST')
      throw new UsageError(`${label} already exists; not overwritten`, 'use provcert init --force to replace it');
    throw new UsageError(`cannot write ${label} (${code ?? 'error'})`);
  }
  return { label, overwritten: options.force };
}

/** The folder `run` keeps its state in (`--last-failed`), as .gitignore names it. */
const STATE_ENTRY = '.provcert/';

/**
 * Adds `.provcert/` (run state, `--last-failed`) to the folder's .gitignore, creating it when there is none; true
 * when it was added, false when it was already listed.
 */
export async function ignoreStateDir(cwd: string): Promise<boolean> {
  const path = resolve(cwd, '.gitignore');
  const text = await readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return '';
    throw new UsageError(`cannot read .gitignore (${e.code ?? 'error'})`);
  });
  if (text.split(/\r?\n/).some((line) => /^\/?\.provcert\/?(\*\*?)?$/.test(line.trim()))) return false;
  const separator = text === '' || text.endsWith('\n') ? '' : '\n';
  await appendFile(path, `${separator}# provcert run state (provcert run --last-failed)\n${STATE_ENTRY}\n`).catch(
    (e: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot write .gitignore (${e.code ?? 'error'})`);
    },
  );
  return true;
}
