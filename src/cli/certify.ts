import type { RunReport } from '../model/report.js';
import type { RunConfig } from '../model/run-config.js';
import { fanOutRunEvents } from '../model/run-events.js';
import { gatePasses } from '../model/verdict.js';
import { createConsoleReporter } from '../report/console.js';
import type { EventStream } from '../report/events.js';
import { isGithubActions, renderGithubAnnotations } from '../report/github.js';
import { type ReportTarget, writeReports } from '../report/index.js';
import { type RunDeps, runCertification } from '../runner/run.js';
import { urlSecrets } from '../util/redact.js';
import { terminalMode } from '../util/terminal-mode.js';
import { openEventsFlag } from './events-flag.js';
import { type CliIo, EXIT } from './io.js';
import { spellAsFlag } from './setting-flags.js';

/**
 * The output wiring of run, demo (and replay's reports): live console output and the event stream around the one
 * certify entry point (runCertification, which judges the expected failures), then the requested reports. Returns
 * the exit code from the verdict: 0 passed, 1 failed. A report that could not be written late (paths are checked
 * before the run) is named on stderr and never hides the verdict.
 */
export async function certifyWithReports(
  config: RunConfig,
  deps: Omit<RunDeps, 'hooks'>,
  /** `events`: --events FILE|- (opened here, before the first request). */
  reports: {
    targets: readonly ReportTarget[];
    github: boolean;
    noColor?: boolean;
    events?: string | undefined;
    /** The command that runs this again, for the recap's next step. */
    rerun?: string | undefined;
  },
  io: CliIo,
): Promise<{ code: number; report: RunReport }> {
  const events = await openEventsFlag(reports.events, reports.targets, io, [
    deps.credential,
    deps.webhookSecret,
    ...urlSecrets(config.baseUrl),
  ]);
  // A report or the event stream on stdout keeps stdout machine-readable: the live output moves to stderr.
  const screen = reports.targets.some((t) => t.path === '-') || events?.target === '-' ? io.stderr : io.stdout;
  const mode = terminalMode(screen, io.env, { noColor: reports.noColor === true });
  const reporter = createConsoleReporter({
    stream: screen,
    color: mode.color,
    interactive: mode.spinner,
    ...(reports.rerun ? { rerun: reports.rerun } : {}),
  });
  const hooks = events ? fanOutRunEvents(reporter, events.runHooks()) : reporter;
  const report = await certifyOrEnd(config, { ...deps, hooks }, events);
  const stoppedBy = report.interruptedBy;
  reporter.onRunEnd(report, stoppedBy ? { interruptedBy: stoppedBy } : {});
  if (reports.github || isGithubActions(io.env)) screen.write(renderGithubAnnotations(report));
  await writeReports(report, reports.targets, io);
  // Last, so run-end carries the verdict the exit code follows.
  events?.runEnd(report, undefined, stoppedBy ? { interruptedBy: stoppedBy } : {});
  await events?.close();
  // PARTIAL exits 0 (every check that ran passed); INTERRUPTED's 130/143 come from main.
  const code = gatePasses(report.verdict) ? EXIT.ok : EXIT.failed;
  return { code, report };
}

/** The run; when it throws, the event stream still ends with run-end (FAIL, the error) and is closed. */
async function certifyOrEnd(config: RunConfig, deps: RunDeps, events: EventStream | undefined): Promise<RunReport> {
  const started = performance.now();
  try {
    return await runCertification(config, { spell: spellAsFlag, ...deps });
  } catch (e) {
    const line = (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
    events?.runFailed(`the run could not finish: ${line}`, performance.now() - started);
    await events?.close();
    throw e;
  }
}
