import { resolve } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { UsageError } from '../model/errors.js';
import { DataFileError, type DataFileErrorKind, readDataFile } from '../util/data-file.js';
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

  const read = async (path: string, cwd: string): Promise<T> => {
    const shown = sanitizeTerminalText(path, { oneLine: true });
    let parsed: unknown;
    try {
      // The shared reader bounds size and nesting; its refusals are reworded in this reader's terms.
      ({ value: parsed } = await readDataFile(resolve(cwd, path), { label: shown, format: 'json' }));
    } catch (e) {
      if (!(e instanceof DataFileError)) throw e;
      if (e.kind === 'syntax' || e.kind === 'binary')
        throw new UsageError(`${shown} is not JSON; expected ${kind.expected}`);
      const reason: Partial<Record<DataFileErrorKind, string>> = {
        'not-found': 'no such file',
        directory: 'it is a directory',
      };
      const because = reason[e.kind];
      throw because ? new UsageError(`cannot read ${kind.noun} ${shown} (${because})`) : e;
    }
    if (parsed === undefined) throw new UsageError(`${shown} is empty; expected ${kind.expected}`);
    return parse(parsed, shown);
  };

  return { validator, parse, read };
}
