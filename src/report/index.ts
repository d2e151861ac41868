import type { RunReport } from '../checks/types.js';
import { renderGithubAnnotations } from './github.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderJUnit } from './junit.js';
import { renderMarkdown } from './markdown.js';

export { createConsoleReporter, shouldBeInteractive, shouldUseColor, type ConsoleReporter, type RunStartInfo } from './console.js';
export { isGithubActions } from './github.js';

/** File reporters: name → renderer. Renderers only read the report and return the text. */
export const REPORTERS = {
  json: renderJson,
  junit: renderJUnit,
  markdown: renderMarkdown,
  html: renderHtml,
  github: renderGithubAnnotations,
} as const;

export type ReporterName = keyof typeof REPORTERS;

export const REPORTER_NAMES = Object.keys(REPORTERS) as ReporterName[];

export const isReporterName = (name: string): name is ReporterName => Object.hasOwn(REPORTERS, name);

/** Where a report goes: a file path, or '-' for stdout. */
export interface ReportTarget {
  name: ReporterName;
  path: string;
}

export interface ReportIo {
  writeFile(path: string, content: string): Promise<void> | void;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export interface ReportFailure {
  name: ReporterName;
  path: string;
  message: string;
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/**
 * Renders and writes each requested report. One that fails (renderer or write) is reported on stderr
 * in one line and does not stop the others; the failures are returned so the caller can decide.
 */
export async function writeReports(report: RunReport, targets: readonly ReportTarget[], io: ReportIo): Promise<ReportFailure[]> {
  const failures: ReportFailure[] = [];
  for (const target of targets) {
    try {
      const content = REPORTERS[target.name](report);
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
