import { writeFile } from 'node:fs/promises';
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
