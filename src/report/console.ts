import { Chalk, type ChalkInstance } from 'chalk';
import type { RunReport } from '../model/report.js';
import type { RunEnding, RunEvents } from '../model/run-events.js';
import { sanitizeTerminalText } from '../util/terminal.js';
import { createStatusLine, type StatusLine, type StatusStream } from './console-status.js';
import { checkResultLines, skippedForLines, skippedUnderLines, verdictLines, waiverLines } from './failure-text.js';
import { formatDuration, summaryText } from './format.js';
import { notRunChecks } from './not-run.js';
import { nextStepText, recapEntries, recapLines } from './recap.js';
import { didNotRunText } from './verdict-text.js';
import { ignoredText } from './webhook-facts.js';

type OutputStream = StatusStream;

/**
 * The console listens to the run's events (model/run-events.ts; webhooks it shows only in the summary), then
 * prints the ending from the report. onRunBegin prints the header at once; onRunStart alone prints it too.
 */
export interface ConsoleReporter extends Required<Omit<RunEvents, 'onWebhook'>> {
  onRunEnd(report: RunReport, ending?: Pick<RunEnding, 'interruptedBy'>): void;
}

export interface ConsoleReporterOptions {
  stream: OutputStream;
  color: boolean;
  /**
   * A status line redrawn in place (spinner, countdowns), as decided by terminalMode. Without it (or on a
   * terminal without width) output is plain lines: one per finished check and one per change of a wait.
   */
  interactive: boolean;
  /** Wall clock for countdowns (injected in tests). */
  now?: () => number;
  /** The command that runs this run again (as the person typed it, secrets masked): the recap's next step. */
  rerun?: string;
}

/** Provider text printed raw could rewrite the screen or hide a failure with escape sequences. */
const terminalSafe = (text: string): string => sanitizeTerminalText(text);

/** A countdown as a person reads it: whole seconds from 10 s, tenths below. */
export function secondsText(ms: number): string {
  const clamped = Math.max(0, ms);
  return clamped >= 10_000 ? `${Math.ceil(clamped / 1000)} s` : `${(clamped / 1000).toFixed(1)} s`;
}

/** A timeout as configured: "10 s", "1.5 s". */
export const timeoutText = (ms: number): string => `${Number((ms / 1000).toFixed(1))} s`;

interface Wait {
  text: string;
  endsEarly: boolean;
  deadline?: number;
}

/** "webhook: 2 of 4 expected events received, up to 24 s left": one line, also on the status line. */
function waitLine(id: string, wait: Wait, now: number): string {
  const left =
    wait.deadline === undefined ? '' : `, ${wait.endsEarly ? 'up to ' : ''}${secondsText(wait.deadline - now)} left`;
  return sanitizeTerminalText(`${id}: ${wait.text}${left}`, { oneLine: true });
}

/** How often a countdown on the status line is redrawn. */
const COUNTDOWN_TICK_MS = 250;

/** Why the run stopped early and what ran: an interrupted run has no verdict. */
function interruptedLines(report: RunReport, by: string, c: ChalkInstance): string[] {
  const { pass, fail, error } = report.summary;
  const ran = pass + fail + error;
  const problems = fail + error > 0 ? `; fix the checks marked ✗ (or !) above` : '';
  const notRun = notRunChecks(report);
  const others = notRun.length > 0 ? `; ${didNotRunText(notRun)} (marked skipped)` : ' (the others are marked skipped)';
  return [
    `${c.yellow.bold('INTERRUPTED')}  ${summaryText(report.summary)}  (${formatDuration(report.durationMs)})`,
    c.yellow(
      `The run was stopped (${terminalSafe(by)}): ${ran} of ${report.checks.length} checks ran to the end${others}${problems}. ` +
        'This is no verdict: run again to certify.',
    ),
  ];
}

/**
 * The live console reporter: the header at once, one line per finished check with the reasons of
 * failures, what long waits are waiting for, then the verdict. On a terminal (interactive) a status
 * line shows the running checks and counts waits down in place; otherwise a wait prints one line per change.
 */
export function createConsoleReporter(options: ConsoleReporterOptions): ConsoleReporter {
  const { stream } = options;
  const now = options.now ?? Date.now;
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const running = new Set<string>();
  const waits = new Map<string, Wait>();
  let cited: Pick<RunReport, 'requirements'> = { requirements: {} };
  let begun = false;
  /** What the run does before any check runs (reading GET /provider-info). */
  let phase: string | undefined;
  let status: StatusLine | undefined = options.interactive ? createStatusLine(stream, options.color) : undefined;
  let ticker: NodeJS.Timeout | undefined;
  /** Skips owed to a check not printed yet: counted in one line under it once it ends (root cause first). */
  const held = new Map<string, string[]>();
  /** Skips owed to a check already printed: one line per cause before the next result. */
  const late = new Map<string, string[]>();
  const printed = new Set<string>();

  const live = (): StatusLine | undefined => (status?.usable ? status : undefined);

  const statusText = (): string | undefined => {
    if (running.size === 0) return phase;
    const waiting = [...waits].map(([id, wait]) => waitLine(id, wait, now()));
    const busy = [...running].filter((id) => !waits.has(id));
    const shown = `${busy.slice(0, 3).join(', ')}${busy.length > 3 ? ` (+${busy.length - 3})` : ''}`;
    return [...waiting, ...(busy.length > 0 ? [`running ${shown}`] : [])].join(' · ');
  };

  const refresh = (): void => {
    const line = live();
    if (!line) return;
    line.show(statusText());
    const counting = [...waits.values()].some((w) => w.deadline !== undefined);
    if (counting && !ticker) {
      ticker = setInterval(() => live()?.show(statusText()), COUNTDOWN_TICK_MS);
      ticker.unref();
    } else if (!counting && ticker) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };

  const print = (lines: string[]): void => {
    const write = (): void => {
      stream.write(`${lines.join('\n')}\n`);
    };
    const line = live();
    if (line) line.printAbove(write);
    else write();
  };

  /** The skips owed to checks printed earlier, one line per cause. */
  const flushLate = (): string[] => {
    const lines = [...late].flatMap(([cause, ids]) => skippedForLines(cause, ids, c));
    late.clear();
    return lines;
  };

  const close = (): void => {
    if (ticker) clearInterval(ticker);
    ticker = undefined;
    status?.close();
    status = undefined;
  };

  return {
    onRunBegin(info) {
      begun = true;
      phase = 'reading GET /provider-info';
      const limit = `requests time out after ${timeoutText(info.timeoutMs)}`;
      print([
        `${c.bold('provcert')} certifying ${terminalSafe(info.baseUrl)}: reading GET /provider-info first (${limit})`,
      ]);
      refresh();
    },
    onRunStart(info) {
      cited = { requirements: info.requirements ?? {} };
      phase = undefined;
      const plan = `profile ${terminalSafe(info.profile)}, ${info.checks} checks`;
      print([
        begun ? plan : `${c.bold('provcert')} certifying ${terminalSafe(info.baseUrl)} (${plan})`,
        `webhook receiver: ${c.cyan(terminalSafe(info.webhookUrl))}  ${c.dim('(the provider must post its status events here)')}`,
        ...(info.followCommand ? [`watch its webhooks: ${c.dim(terminalSafe(info.followCommand))}`] : []),
        '',
      ]);
      refresh();
    },
    onCheckStart(id) {
      running.add(id);
      refresh();
    },
    onCheckProgress(id, update) {
      if (!running.has(id)) return;
      const deadline = update.remainingMs === undefined ? {} : { deadline: now() + update.remainingMs };
      const wait: Wait = { text: update.text, endsEarly: update.endsEarly === true, ...deadline };
      const before = waits.get(id);
      waits.set(id, wait);
      // On a pipe, one line per change of what is awaited; the countdown alone is no change.
      if (!live() && before?.text !== wait.text) print([c.dim(`… ${waitLine(id, wait, now())}`)]);
      refresh();
    },
    onCheckEnd(result) {
      running.delete(result.id);
      waits.delete(result.id);
      const cause = result.status === 'skip' ? result.skippedBecauseOf : undefined;
      if (cause !== undefined) {
        const into = printed.has(cause) ? late : held;
        into.set(cause, [...(into.get(cause) ?? []), result.id]);
        return;
      }
      const under = held.get(result.id) ?? [];
      held.delete(result.id);
      printed.add(result.id);
      print([...flushLate(), ...checkResultLines(result, c, cited), ...skippedUnderLines(under, c)]);
      refresh();
    },
    onRunEnd(report, ending = {}) {
      running.clear();
      waits.clear();
      phase = undefined;
      close();
      const closing =
        ending.interruptedBy !== undefined
          ? interruptedLines(report, ending.interruptedBy, c)
          : verdictLines(report, c);
      const ignored = ignoredText(report.webhooks.ignored);
      // Skips whose cause never ended (an interrupted run) still get their one line.
      const orphans = [...held].flatMap(([cause, ids]) => skippedForLines(cause, ids, c));
      held.clear();
      const next = ending.interruptedBy === undefined ? nextStepText(recapEntries(report), options.rerun) : undefined;
      print([
        ...flushLate(),
        ...orphans,
        ...waiverLines(report, c),
        ...(ignored ? [c.dim(terminalSafe(ignored))] : []),
        ...recapLines(report, c),
        '',
        ...closing,
        ...(next ? [c.cyan(terminalSafe(next))] : []),
      ]);
    },
  };
}
