import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A folder path that cannot be made, with the errno code that says why (ENOTDIR, EACCES, ENOENT…). */
export class FolderError extends Error {
  constructor(
    readonly code: string,
    readonly folder: string,
  ) {
    super(`${folder}: ${code}`);
  }
}

const errnoCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? 'error';

/**
 * Create the folders above `file` that are missing, one level at a time from the nearest existing one. Node 20's
 * `mkdir(…, { recursive: true })` loops for ever where a level cannot be made but ENOENT is the answer (under /proc):
 * each level here is made once, and the first refusal is thrown as a FolderError.
 */
export async function makeParentFolders(file: string): Promise<void> {
  const missing: string[] = [];
  let folder = dirname(file);
  for (;;) {
    const found = await stat(folder).catch((error: unknown) => errnoCode(error));
    if (typeof found !== 'string') {
      if (!found.isDirectory()) throw new FolderError('ENOTDIR', folder);
      break;
    }
    if (found !== 'ENOENT') throw new FolderError(found, folder);
    const above = dirname(folder);
    if (above === folder) throw new FolderError('ENOENT', folder);
    missing.unshift(folder);
    folder = above;
  }
  for (const level of missing) {
    try {
      await mkdir(level);
    } catch (error) {
      const code = errnoCode(error);
      // Another writer made it meanwhile: fine when it is a folder.
      if (code === 'EEXIST' && (await stat(level).catch(() => undefined))?.isDirectory()) continue;
      throw new FolderError(code, level);
    }
  }
}

/** Why the folder of a file cannot be made, in words for a one-line usage error. */
export function folderProblem(error: unknown): string {
  const code = error instanceof FolderError ? error.code : errnoCode(error);
  return code === 'ENOTDIR' || code === 'EEXIST'
    ? 'a part of its folder path is a file, not a folder'
    : `its folder cannot be created (${code})`;
}
