import { resolve } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { UsageError } from '../model/errors.js';
import { DataFileError, readDataFileDigest } from '../util/data-file.js';
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

const megabytes = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;

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

  /** The shared reader's refusal, in the words of this kind of file. */
  const refusal = (e: DataFileError, shown: string): UsageError => {
    switch (e.kind) {
      case 'not-found':
        return new UsageError(`cannot read ${kind.noun} ${shown} (no such file)`);
      case 'directory':
        return new UsageError(`cannot read ${kind.noun} ${shown} (it is a directory)`);
      case 'not-a-file':
        return new UsageError(`cannot read ${kind.noun} ${shown} (not a regular file)`);
      case 'unreadable':
        return new UsageError(`cannot read ${kind.noun} ${shown} (${e.code ?? 'error'})`);
      case 'too-large':
        return new UsageError(`${shown} is larger than ${megabytes(kind.maxBytes)}; no ${kind.what} is that large`);
      case 'too-deep':
        return new UsageError(`${shown} is nested deeper than ${MAX_REPORT_DEPTH} levels; no ${kind.what} is`);
      case 'syntax':
      case 'binary':
        return new UsageError(`${shown} is not JSON; expected ${kind.expected}`);
      default:
        return e;
    }
  };

  const readWithDigest = async (path: string, cwd: string): Promise<ReadFile<T>> => {
    const shown = sanitizeTerminalText(path, { oneLine: true });
    let read: Awaited<ReturnType<typeof readDataFileDigest>>;
    try {
      // The shared reader: bounded size (a regular file only), depth checked before parsing, one-line refusals.
      read = await readDataFileDigest(resolve(cwd, path), {
        label: shown,
        format: 'json',
        maxBytes: kind.maxBytes,
        maxDepth: MAX_REPORT_DEPTH,
        regularFileOnly: true,
      });
    } catch (e) {
      throw e instanceof DataFileError ? refusal(e, shown) : e;
    }
    if (read.value === undefined) throw new UsageError(`${shown} is empty; expected ${kind.expected}`);
    return { report: parse(read.value, shown), digest: read.sha256 };
  };

  const read = async (path: string, cwd: string): Promise<T> => (await readWithDigest(path, cwd)).report;

  return { validator, parse, read, readWithDigest };
}
