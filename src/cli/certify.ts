import type { RunReport } from '../model/report.js';
import type { RunConfig } from '../model/run-config.js';
import { createConsoleReporter, terminalMode } from '../report/console.js';
import { isGithubActions, renderGithubAnnotations } from '../report/github.js';
import { type ReportTarget, writeReports } from '../report/index.js';
import { type RunDeps, runCertification } from '../runner/run.js';
import { type CliIo, EXIT } from './io.js';

/**
 * Runs a certification with live console output, then writes the requested reports. Returns the exit
 * code from the verdict: 0 passed, 1 failed. A report that could not be written late (paths are checked
 * before the run) is named on stderr and never hides the verdict.
 */
export async function certifyWithReports(
  config: RunConfig,
  deps: Omit<RunDeps, 'hooks'>,
  reports: { targets: readonly ReportTarget[]; github: boolean; noColor?: boolean },
  io: CliIo,
): Promise<{ code: number; report: RunReport }> {
  // A report on stdout keeps stdout machine-readable: the live output moves to stderr.
  const screen = reports.targets.some((t) => t.path === '-') ? io.stderr : io.stdout;
  const mode = terminalMode(screen, io.env, { noColor: reports.noColor === true });
  const reporter = createConsoleReporter({ stream: screen, color: mode.color, interactive: mode.spinner });
  const report = await runCertification(config, { ...deps, hooks: reporter });
  const stoppedBy = deps.signal?.aborted ? signalName(deps.signal.reason) : undefined;
  reporter.onRunEnd(report, stoppedBy ? { interruptedBy: stoppedBy } : {});
  if (reports.github || isGithubActions(io.env)) screen.write(renderGithubAnnotations(report));
  await writeReports(report, reports.targets, io);
  const code = report.verdict === 'PASS' ? EXIT.ok : EXIT.failed;
  return { code, report };
}

const signalName = (reason: unknown): string => (typeof reason === 'string' ? reason : 'interrupt');
