import { readFile, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * Why a credentialFile reference is refused at registration, or undefined. The file must lie inside the
 * credential directory the operator configured: a relative path without `..` segments.
 */
export function credentialFileProblem(file: string): string | undefined {
  if (file.trim() === '') return 'credentialFile must not be blank';
  if (isAbsolute(file) || /^[a-zA-Z]:/.test(file))
    return "credentialFile must be a path relative to the server's credential directory, not an absolute path";
  if (file.split(/[\\/]/).includes('..'))
    return 'credentialFile must not contain ".." segments: it names a file inside the server\'s credential directory';
  if (file.includes('\u0000')) return 'credentialFile must not contain NUL characters';
  return undefined;
}

export type CredentialRead = { ok: true; credential: string } | { ok: false; message: string };

/**
 * Read a credential file confined to `dir`: the real path (symlinks resolved) must stay inside the real
 * directory, so neither `..` nor a symlink can reach other files the server can read.
 */
export async function readConfinedCredential(file: string, dir: string): Promise<CredentialRead> {
  const problem = credentialFileProblem(file);
  if (problem) return { ok: false, message: problem };
  let realDir: string;
  let realFile: string;
  try {
    realDir = await realpath(dir);
    realFile = await realpath(resolve(realDir, file));
  } catch (e) {
    return {
      ok: false,
      message: `cannot read the credential file ${file} in the credential directory (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  }
  const inside = relative(realDir, realFile);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside) || inside.split(sep)[0] === '..') {
    return {
      ok: false,
      message: `the credential file ${file} resolves outside the credential directory; it is not read`,
    };
  }
  try {
    return { ok: true, credential: (await readFile(realFile, 'utf8')).replace(/\r?\n$/, '') };
  } catch (e) {
    return {
      ok: false,
      message: `cannot read the credential file ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  }
}
