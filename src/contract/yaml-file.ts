import { DataFileError, readDataFile } from '../util/data-file.js';
import { err, ok, type Result } from '../util/result.js';

/** Why a YAML (or JSON) file could not be read; the message names the file as `label` and `path`. */
export interface YamlFileError {
  kind: 'not-found' | 'unreadable' | 'not-yaml';
  message: string;
}

/**
 * Read and parse a YAML/JSON file through the one data-file reader (size, alias and depth limits); every
 * failure is a value naming the file ("spec file …", "requirements catalog …").
 */
export async function readYamlFile(
  path: string,
  label: string,
  formats = 'YAML',
): Promise<Result<unknown, YamlFileError>> {
  const named = `${label} ${path}`;
  try {
    return ok((await readDataFile(path, { label: named, format: 'yaml' })).value);
  } catch (e) {
    if (!(e instanceof DataFileError)) throw e;
    if (e.kind === 'not-found') return err({ kind: 'not-found', message: `${label} not found: ${path}` });
    if (e.kind === 'unreadable' || e.kind === 'directory' || e.kind === 'too-large' || e.kind === 'binary')
      return err({ kind: 'unreadable', message: e.message });
    const why = e.message
      .slice(named.length)
      .replace(/^:(\d+):(\d+): invalid YAML: /, 'line $1, column $2: ')
      .replace(/^:? /, '');
    return err({ kind: 'not-yaml', message: `${named} is not valid ${formats}: ${why}` });
  }
}
