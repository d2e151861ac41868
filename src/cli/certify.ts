import type { RunReport } from '../model/report.js';
import type { RunConfig } from '../model/run-config.js';
import type { ExpectedFailure } from '../model/waivers.js';
import { createConsoleReporter } from '../report/console.js';
import { isGithubActions, renderGithubAnnotations } from '../report/github.js';
import { type ReportTarget, writeReports } from '../report/index.js';
import { fanOutHooks } from '../report/live-hooks.js';
import { type RunDeps, runCertification } from '../runner/run.js';
import { evaluateWaivers, previewWaivers, utcDate } from '../runner/waivers.js';
import { urlSecrets } from '../util/redact.js';
import { terminalMode } from '../util/terminal-mode.js';
import { openEventsFlag } from './events-flag.js';
import { type CliIo, EXIT } from './io.js';

/**
 * Runs a certification with live console output, then writes the requested reports. Returns the exit
 * code from the verdict: 0 passed, 1 failed. A report that could not be written late (paths are checked
 * before the run) is named on stderr and never hides the verdict. `expectedFailures` (the config file's) are
 * judged on the finished report, so every report and the exit code follow the waived verdict.
 */
export async function certifyWithReports(
  config: RunConfig,
  deps: Omit<RunDeps, 'hooks'>,
  /** `events`: --events FILE|- (opened here, before the first request). */
  reports: { targets: readonly ReportTarget[]; github: boolean; noColor?: boolean; events?: string | undefined },
  io: CliIo,
  expectedFailures: readonly ExpectedFailure[] = [],
): Promise<{ code: number; report: RunReport }> {
  const events = await openEventsFlag(reports.events, reports.targets, io, [
    deps.credential,
    deps.webhookSecret,
    ...urlSecrets(config.baseUrl),
  ]);
  // A report or the event stream on stdout keeps stdout machine-readable: the live output moves to stderr.
  const screen = reports.targets.some((t) => t.path === '-') || events?.target === '-' ? io.stderr : io.stdout;
  const mode = terminalMode(screen, io.env, { noColor: reports.noColor === true });
  const reporter = createConsoleReporter({ stream: screen, color: mode.color, interactive: mode.spinner });
  // The console (WAIVED) and the event stream (check-end's waiver) show a waived check the moment it ends; the
  // judgement that counts is on the report.
  const live = events ? fanOutHooks(reporter, events.runHooks()) : reporter;
  const ran = await runCertification(config, {
    ...deps,
    hooks: previewWaivers(live, expectedFailures, utcDate(new Date())),
  });
  const report = withWaivers(ran, expectedFailures);
  const stoppedBy = deps.signal?.aborted ? signalName(deps.signal.reason) : undefined;
  reporter.onRunEnd(report, stoppedBy ? { interruptedBy: stoppedBy } : {});
  if (reports.github || isGithubActions(io.env)) screen.write(renderGithubAnnotations(report));
  await writeReports(report, reports.targets, io);
  // Last, so run-end carries the verdict the exit code follows.
  events?.runEnd(report, undefined, stoppedBy ? { interruptedBy: stoppedBy } : {});
  await events?.close();
  const code = report.verdict === 'PASS' ? EXIT.ok : EXIT.failed;
  return { code, report };
}

/** The report judged against the expected failures, on the day the run started (UTC). */
function withWaivers(report: RunReport, expectedFailures: readonly ExpectedFailure[]): RunReport {
  if (expectedFailures.length === 0) return report;
  const runs = [{ slug: report.provider.slug ?? '', report }];
  return evaluateWaivers(expectedFailures, runs, utcDate(new Date(report.startedAt))).reports[0] ?? report;
}

const signalName = (reason: unknown): string => (typeof reason === 'string' ? reason : 'interrupt');
