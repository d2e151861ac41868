import { constants } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../model/errors.js';
import type { RunReport } from '../model/report.js';
import { folderProblem, makeParentFolders } from '../util/parent-folders.js';
import type { StoredOrigin } from './origin.js';
import { REPORTERS, type RenderingReporterName } from './reporters.js';

/** Where a report goes: a file path, or '-' for stdout. */
export interface ReportTarget {
  name: RenderingReporterName;
  path: string;
}

export interface ReportIo {
  writeFile(path: string, content: string): Promise<void> | void;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export interface ReportFailure {
  name: RenderingReporterName;
  path: string;
  message: string;
}

const describe = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/**
 * Renders and writes each requested report. One that fails (renderer or write) is reported on stderr
 * in one line and does not stop the others; the failures are returned so the caller can decide. With `origin`
 * (a report read back from a file), every format says so.
 */
export async function writeReports(
  report: RunReport,
  targets: readonly ReportTarget[],
  io: ReportIo,
  origin?: StoredOrigin,
): Promise<ReportFailure[]> {
  const failures: ReportFailure[] = [];
  for (const target of targets) {
    try {
      const content = REPORTERS[target.name].render(report, origin);
      if (target.path === '-') io.stdout.write(content);
      else await io.writeFile(target.path, content);
    } catch (error) {
      const failure = { name: target.name, path: target.path, message: describe(error) };
      failures.push(failure);
      const where = target.path === '-' ? 'stdout' : target.path;
      io.stderr.write(`provcert: could not write the ${target.name} report to ${where}: ${failure.message}\n`);
    }
  }
  return failures;
}

const errnoCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? 'error';

/** Why a report cannot go to this file, or undefined when it can (parent folders are created on the way). */
async function unusableBecause(absolute: string): Promise<string | undefined> {
  const existing = await stat(absolute).catch(() => undefined);
  if (existing?.isDirectory()) return 'it is a directory; name a file inside it';
  try {
    await makeParentFolders(absolute);
  } catch (error) {
    return folderProblem(error);
  }
  // Open for append: proves the file can be written without touching an existing one; a probe file is removed again.
  // Non-blocking: a FIFO without a reader is refused (ENXIO) instead of holding the run (and its exit) for ever.
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK;
  try {
    const handle = await open(absolute, flags, 0o666);
    await handle.close();
    if (!existing) await rm(absolute, { force: true });
  } catch (error) {
    return `it cannot be written (${errnoCode(error)})`;
  }
  return undefined;
}

/**
 * Before a run sends any request: every report file can be written. Parent folders are created; a
 * directory, a path through a file or an unwritable place is a UsageError (exit 2) naming the report.
 */
export async function prepareReportTargets(targets: readonly ReportTarget[], cwd: string): Promise<void> {
  const seen = new Map<string, string>();
  for (const target of targets) {
    if (target.path === '-') continue;
    const absolute = resolve(cwd, target.path);
    const other = seen.get(absolute);
    if (other)
      throw new UsageError(
        `the ${other} and ${target.name} reports would both be written to ${target.path}; give each its own file`,
      );
    seen.set(absolute, target.name);
    const reason = await unusableBecause(absolute);
    if (reason) throw new UsageError(`cannot write the ${target.name} report to ${target.path}: ${reason}`);
  }
}
