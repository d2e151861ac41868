import type { RunReport } from '../model/report.js';
import { createConsoleReporter, terminalMode } from '../report/console.js';
import { isGithubActions, renderGithubAnnotations } from '../report/github.js';
import { writeReports, type ReportTarget } from '../report/index.js';
import type { RunConfig } from '../model/run-config.js';
import { runCertification, type RunDeps } from '../runner/run.js';
import { EXIT, type CliIo } from './io.js';

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

/** Signals that stop a run: Ctrl-C, and what CI runners and `kill` send. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type StopSignal = (typeof STOP_SIGNALS)[number];

/** Exit code of a run stopped by a signal: 128 + its number, as a shell reports it. */
const STOPPED_EXIT: Readonly<Record<StopSignal, number>> = { SIGINT: EXIT.interrupted, SIGTERM: EXIT.terminated };

const signalName = (reason: unknown): string => (typeof reason === 'string' ? reason : 'interrupt');

/**
 * Runs a certification that the first SIGINT or SIGTERM stops promptly: the signal aborts the run (waits
 * and requests in flight are cut short) and the report of what ran is still written; the exit code is then
 * 130 (SIGINT) or 143 (SIGTERM). A second signal ends the process at once.
 */
export async function stoppable(work: (signal: AbortSignal) => Promise<number>): Promise<number> {
  const stop = new AbortController();
  const listeners = STOP_SIGNALS.map((name) => [name, (): void => onSignal(name)] as const);
  const detach = (): void => {
    for (const [name, listener] of listeners) process.off(name, listener);
  };
  const onSignal = (name: StopSignal): void => {
    if (!stop.signal.aborted) {
      stop.abort(name);
      return;
    }
    // Asked twice: without our listeners the signal's default action ends the process.
    detach();
    process.kill(process.pid, name);
  };
  for (const [name, listener] of listeners) process.on(name, listener);
  try {
    const code = await work(stop.signal);
    const reason: unknown = stop.signal.reason;
    return stop.signal.aborted && (reason === 'SIGINT' || reason === 'SIGTERM') ? STOPPED_EXIT[reason] : code;
  } finally {
    detach();
  }
}
