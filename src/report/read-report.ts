import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { UsageError } from '../model/errors.js';
import type { RunReport } from '../model/report.js';
import { isRecord } from '../util/json.js';
import { packageRoot } from '../util/package-root.js';
import { sanitizeTerminalText } from '../util/terminal.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object's default.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const REPORT_SCHEMA_PATH = join(packageRoot, 'spec', 'report.schema.json');

/** The one report version this provcert writes and reads. */
const READ_VERSION = 1;

let validator: ValidateFunction | undefined;

function validate(): ValidateFunction {
  if (validator) return validator;
  const ajv = new Ajv2020({ allErrors: false, strict: false });
  addFormats(ajv);
  validator = ajv.compile(JSON.parse(readFileSync(REPORT_SCHEMA_PATH, 'utf8')) as object);
  return validator;
}

/** "/checks/0/status must be equal to one of the allowed values" — the report's own text shown escaped, on one line. */
function explain(error: ErrorObject): string {
  const where = error.instancePath || 'the top level';
  const extra =
    error.keyword === 'additionalProperties'
      ? ` ("${String((error.params as { additionalProperty?: unknown }).additionalProperty)}")`
      : '';
  return sanitizeTerminalText(`${where} ${error.message ?? 'is invalid'}${extra}`, { oneLine: true }).slice(0, 200);
}

/**
 * Checks parsed JSON is a report this provcert can read (spec/report.schema.json, reportVersion 1);
 * every problem is a UsageError of one line naming the file and the first thing wrong.
 */
function parseReport(value: unknown, path: string): RunReport {
  const what = 'provcert JSON report (written by provcert run --json FILE)';
  if (!isRecord(value) || !('reportVersion' in value))
    throw new UsageError(`${path} is not a ${what}: it has no reportVersion`);
  const version = value['reportVersion'];
  if (version !== READ_VERSION) {
    const shown = sanitizeTerminalText(JSON.stringify(version) ?? String(version), { oneLine: true }).slice(0, 40);
    throw new UsageError(
      `${path} has reportVersion ${shown}; this provcert reads reportVersion ${READ_VERSION} reports`,
    );
  }
  const check = validate();
  if (!check(value)) {
    const first = check.errors?.[0];
    throw new UsageError(
      `${path} is not a valid ${what}: ${first ? explain(first) : 'it does not match spec/report.schema.json'}`,
    );
  }
  return value as unknown as RunReport;
}

/** Reads and validates a JSON report file (relative paths from cwd). */
export async function readReport(path: string, cwd: string): Promise<RunReport> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, path), 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (code ?? 'error');
    throw new UsageError(`cannot read report ${path} (${reason})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`${path} is not JSON; expected the JSON report of a run (provcert run --json FILE)`);
  }
  return parseReport(parsed, path);
}
