import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { UsageError } from '../model/errors.js';
import { DataFileError, parseDataText } from '../util/data-file.js';
import { isRecord } from '../util/json.js';
import { compileSpecSchemas } from '../util/schema-compiler.js';
import { sanitizeTerminalText } from '../util/terminal.js';

/** The one report version this provcert writes and reads. */
const READ_VERSION = 1;

/** A kind of JSON report file provcert reads back: a run's report.json or a fleet's fleet.json. */
export interface ReportFileKind {
  /** "report", "fleet report": in "cannot read report X" and "reads reportVersion 1 reports". */
  noun: string;
  /** What the file should be, e.g. "provcert JSON report (written by provcert run --json FILE)". */
  what: string;
  /** After "X is not JSON; expected ". */
  expected: string;
  /** spec/ files: the last one describes the file, the ones before it are what it references. */
  schemas: readonly string[];
  /** A first look: throws a UsageError when the value is another kind of file altogether. */
  recognize(value: Record<string, unknown>, path: string): void;
  /** The largest file read (bytes); a larger one is refused before it is parsed. */
  maxBytes: number;
}

/** Deeper than any report provcert writes (provider bodies included): refused before parsing and validating. */
export const MAX_REPORT_DEPTH = 64;

/** A report file as read: the parsed value, and the sha256 of its bytes (hex) to name exactly what was read. */
export interface ReadFile<T> {
  report: T;
  digest: string;
}

/** How deeply arrays and objects nest in JSON text, counted outside strings; stops counting past `limit`. */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

const megabytes = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;

/** At most `max + 1` bytes of a regular file: enough to tell it is too large without reading it all. */
async function readBounded(file: string, max: number): Promise<Buffer | 'too-large' | 'not-a-file'> {
  const handle = await open(file, 'r');
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    if (!stat.isFile()) return 'not-a-file';
    if (stat.size > max) return 'too-large';
    const buffer = Buffer.alloc(max + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > max) return 'too-large';
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

/** "/checks/0/status must be equal to one of the allowed values", the file's own text escaped, on one line. */
function explain(error: ErrorObject): string {
  const where = error.instancePath || 'the top level';
  const extra =
    error.keyword === 'additionalProperties'
      ? ` ("${String((error.params as { additionalProperty?: unknown }).additionalProperty)}")`
      : '';
  return sanitizeTerminalText(`${where} ${error.message ?? 'is invalid'}${extra}`, { oneLine: true }).slice(0, 200);
}

/**
 * Reading one kind of report file: every problem (unreadable, not JSON, another kind of file, another version,
 * not valid against its schema) is a UsageError of one line naming the file and the first thing wrong.
 */
export function reportFileReader<T>(kind: ReportFileKind): {
  validator(): ValidateFunction;
  parse(value: unknown, path: string): T;
  read(path: string, cwd: string): Promise<T>;
  readWithDigest(path: string, cwd: string): Promise<ReadFile<T>>;
} {
  let compiled: ValidateFunction | undefined;
  const validator = (): ValidateFunction => {
    if (compiled) return compiled;
    compiled = compileSpecSchemas(kind.schemas, { allErrors: false, strict: false });
    return compiled;
  };

  const parse = (value: unknown, path: string): T => {
    if (!isRecord(value)) throw new UsageError(`${path} is not a ${kind.what}: it is not a JSON object`);
    kind.recognize(value, path);
    const version = value['reportVersion'];
    if (version === undefined) throw new UsageError(`${path} is not a ${kind.what}: it has no reportVersion`);
    if (version !== READ_VERSION) {
      const shown = sanitizeTerminalText(JSON.stringify(version) ?? String(version), { oneLine: true }).slice(0, 40);
      throw new UsageError(
        `${path} has reportVersion ${shown}; this provcert reads reportVersion ${READ_VERSION} ${kind.noun}s`,
      );
    }
    const check = validator();
    if (!check(value)) {
      const first = check.errors?.[0];
      const why = first ? explain(first) : `it does not match spec/${kind.schemas.at(-1)}`;
      throw new UsageError(`${path} is not a valid ${kind.what}: ${why}`);
    }
    return value as unknown as T;
  };

  const readWithDigest = async (path: string, cwd: string): Promise<ReadFile<T>> => {
    const shown = sanitizeTerminalText(path, { oneLine: true });
    let bytes: Buffer | 'too-large' | 'not-a-file';
    try {
      bytes = await readBounded(resolve(cwd, path), kind.maxBytes);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (code ?? 'error');
      throw new UsageError(`cannot read ${kind.noun} ${shown} (${reason})`);
    }
    if (bytes === 'not-a-file') throw new UsageError(`cannot read ${kind.noun} ${shown} (not a regular file)`);
    if (bytes === 'too-large')
      throw new UsageError(`${shown} is larger than ${megabytes(kind.maxBytes)}; no ${kind.what} is that large`);
    const text = bytes.toString('utf8');
    if (jsonDepthExceeds(text, MAX_REPORT_DEPTH))
      throw new UsageError(`${shown} is nested deeper than ${MAX_REPORT_DEPTH} levels; no ${kind.what} is`);
    let parsed: unknown;
    try {
      // The shared parser (duplicate keys, __proto__, one-line syntax errors); size and depth are bounded above.
      ({ value: parsed } = parseDataText(text, { label: shown, format: 'json', maxDepth: MAX_REPORT_DEPTH }));
    } catch (e) {
      if (e instanceof DataFileError && (e.kind === 'syntax' || e.kind === 'binary'))
        throw new UsageError(`${shown} is not JSON; expected ${kind.expected}`);
      throw e;
    }
    if (parsed === undefined) throw new UsageError(`${shown} is empty; expected ${kind.expected}`);
    return { report: parse(parsed, shown), digest: createHash('sha256').update(bytes).digest('hex') };
  };

  const read = async (path: string, cwd: string): Promise<T> => (await readWithDigest(path, cwd)).report;

  return { validator, parse, read, readWithDigest };
}
