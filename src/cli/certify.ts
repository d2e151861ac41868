import type { RunReport } from '../checks/types.js';
import { createConsoleReporter, shouldUseColor } from '../report/console.js';
import { isGithubActions, renderGithubAnnotations } from '../report/github.js';
import { writeReports, type ReportTarget } from '../report/index.js';
import type { RunConfig } from '../runner/config.js';
import { runCertification, type RunDeps } from '../runner/run.js';
import { EXIT, type CliIo } from './io.js';

/**
 * Runs a certification with live console output, then writes the requested reports. Returns the exit
 * code: 0 passed, 1 failed, 2 when a report could not be written (the run itself is in the console).
 */
export async function certifyWithReports(
  config: RunConfig,
  deps: Omit<RunDeps, 'hooks'>,
  reports: { targets: readonly ReportTarget[]; github: boolean },
  io: CliIo,
): Promise<{ code: number; report: RunReport }> {
  // A report on stdout keeps stdout machine-readable: the live output moves to stderr.
  const screen = reports.targets.some((t) => t.path === '-') ? io.stderr : io.stdout;
  const reporter = createConsoleReporter({
    stream: screen,
    color: shouldUseColor(screen, io.env),
    interactive: Boolean(screen.isTTY) && !io.env['CI'],
  });
  const report = await runCertification(config, { ...deps, hooks: reporter });
  reporter.onRunEnd(report);
  if (reports.github || isGithubActions(io.env)) screen.write(renderGithubAnnotations(report));
  const failures = await writeReports(report, reports.targets, io);
  const code = failures.length > 0 ? EXIT.usage : report.verdict === 'PASS' ? EXIT.ok : EXIT.failed;
  return { code, report };
}
