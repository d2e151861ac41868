import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { err, ok, type Result } from '../util/result.js';

/** Why a YAML (or JSON) file could not be read; the message names the file as `label` and `path`. */
export interface YamlFileError {
  kind: 'not-found' | 'unreadable' | 'not-yaml';
  message: string;
}

/** Read and parse a YAML/JSON file; every failure is a value naming the file ("spec file …", "requirements catalog …"). */
export async function readYamlFile(
  path: string,
  label: string,
  formats = 'YAML',
): Promise<Result<unknown, YamlFileError>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? err({ kind: 'not-found', message: `${label} not found: ${path}` })
      : err({ kind: 'unreadable', message: `cannot read ${label} ${path} (${code ?? 'error'})` });
  }
  try {
    return ok(parse(text, { maxAliasCount: 1000 }) as unknown);
  } catch (e) {
    return err({
      kind: 'not-yaml',
      message: `${label} ${path} is not valid ${formats}: ${(e as Error).message.split('\n')[0]}`,
    });
  }
}
