import { resolve } from 'node:path';
import { UsageError } from '../model/errors.js';
import { type EventStream, openEventStream } from '../report/events.js';
import type { ReportTarget } from '../report/index.js';
import type { CliIo } from './io.js';

/**
 * `--events FILE|-`: checked against the report targets (one owner of stdout, one writer per file), then opened,
 * which creates the file — all before the run sends a request. Undefined without the flag.
 */
export async function openEventsFlag(
  target: string | undefined,
  reports: readonly ReportTarget[],
  io: CliIo,
  secrets: readonly (string | undefined)[],
): Promise<EventStream | undefined> {
  if (target === undefined) return undefined;
  if (target.trim() === '') throw new UsageError('--events needs a file path, or - for standard output');
  const clash =
    target === '-'
      ? reports.find((r) => r.path === '-')
      : reports.find((r) => r.path !== '-' && resolve(io.cwd, r.path) === resolve(io.cwd, target));
  if (clash)
    throw new UsageError(
      target === '-'
        ? `--events - and the ${clash.name} report cannot both go to standard output (-); give one a file`
        : `the ${clash.name} report and the event stream would both be written to ${target}; give each its own file`,
    );
  return openEventStream(target, { stdout: io.stdout, stderr: io.stderr, cwd: io.cwd, secrets });
}
