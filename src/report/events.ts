import type { FleetReport } from '../model/fleet-report.js';
import type { RunReport } from '../model/report.js';
import type { RunEnding, RunEvents } from '../model/run-events.js';
import { Redactor } from '../util/redact.js';
import { jsonTerminalSafe } from '../util/terminal.js';
import {
  checkEndLines,
  checkStartLine,
  type EventBody,
  type FleetStartInfo,
  fleetEndLine,
  fleetStartLine,
  runEndLine,
  runErrorLine,
  runPlanLine,
  runStartLine,
  webhookLine,
} from './event-lines.js';
import { type EventSink, fileSink, stdoutSink } from './event-sink.js';

export type { FleetStartInfo } from './event-lines.js';

/** The run events an event stream listens to: pass them (alone or through fanOutRunEvents) as runCertification's hooks. */
export type EventRunHooks = Required<Omit<RunEvents, 'onCheckProgress'>>;

export interface EventStreamIo {
  /** Where the target `-` writes. The stream then owns stdout: the caller moves its console output to stderr. */
  stdout: NodeJS.WritableStream;
  /** A relative target path is resolved against it. */
  cwd: string;
  /** Gets one line when the stream has to stop early (reader gone, disk full); the run itself goes on. */
  stderr?: { write(text: string): unknown };
  /**
   * Secrets masked once more in every line. The runner already masks everything its hooks and reports hand
   * over; this is the last guard (e.g. a fleet passes every provider's credential and webhook secret).
   */
  secrets?: readonly (string | undefined)[];
  /** The clock of each line's `time` (tests). */
  now?: () => Date;
}

/**
 * The NDJSON event stream of `--events FILE|-` (spec/events.schema.json): one JSON object per line, written as it
 * happens, `seq` 1, 2, 3… across the whole stream. Nothing here throws once the stream is open: a failing
 * target stops the stream with one note on stderr and the run goes on.
 *
 * One run: `hooks = stream.runHooks()` → `runCertification(config, { …, hooks })` → `stream.runEnd(report)`
 * (after expected failures are applied, so its verdict is the exit code's) → `await stream.close()`.
 *
 * A fleet (`provcert batch`): `fleetStart({ name, providers, concurrency, shard })`; per provider
 * `runHooks(slug)` and `runEnd(report, slug)` (every line of that run carries `provider: slug`, so concurrent
 * runs can interleave); then `fleetEnd(fleetReport)` and `close()`.
 */
export interface EventStream {
  /** The path as given, or `-` for stdout. */
  readonly target: string;
  /** run-start, run-plan, check-start, check-end (+ a finding line per finding) and webhook lines of one run. */
  runHooks(provider?: string): EventRunHooks;
  /** run-end: the (masked) report's verdict, summary and duration; how it ended (signal, waiver outcomes). */
  runEnd(report: RunReport, provider?: string, ending?: RunEnding): void;
  /** run-end of a run that threw before it had a report (FAIL, with the error's first line). */
  runFailed(error: string, durationMs: number, provider?: string): void;
  /** fleet-start, before the first provider's run-start. */
  fleetStart(info: FleetStartInfo): void;
  /** fleet-end: the fleet verdict, summary, every provider's verdict and the waiver outcomes. */
  fleetEnd(report: FleetReport, ending?: RunEnding): void;
  /** Stops writing and closes the file (not stdout). Further calls write nothing. */
  close(): Promise<void>;
}

/**
 * Open the stream: `-` is stdout; a path is created (parent folders too) or emptied now, so an unusable path is
 * a UsageError (exit 2) before the run sends a request.
 */
export async function openEventStream(target: string, io: EventStreamIo): Promise<EventStream> {
  let stopped = false;
  const onBroken = (reason: string): void => {
    stopped = true;
    io.stderr?.write(
      `provcert: the event stream to ${target === '-' ? 'stdout' : target} stopped (${reason}); the run goes on\n`,
    );
  };
  const sink: EventSink = target === '-' ? stdoutSink(io.stdout, onBroken) : await fileSink(target, io.cwd, onBroken);
  const secrets = (io.secrets ?? []).filter((s): s is string => typeof s === 'string' && s !== '');
  const redactor = secrets.length > 0 ? new Redactor(secrets) : undefined;
  const now = io.now ?? (() => new Date());
  let seq = 0;

  const emit = (body: EventBody, provider?: string): void => {
    if (stopped) return;
    const { type, ...fields } = body;
    const line = { type, time: now().toISOString(), seq: ++seq, ...(provider ? { provider } : {}), ...fields };
    // One line per event: U+2028/U+2029 and U+0085 would split it for some readers; bidi controls mislead.
    sink.write(`${jsonTerminalSafe(JSON.stringify(redactor ? redactor.deep(line) : line))}\n`);
  };

  return {
    target,
    runHooks: (provider) => ({
      onRunBegin: (info) => emit(runStartLine(info), provider),
      onRunStart: (info) => emit(runPlanLine(info), provider),
      onCheckStart: (id, title) => emit(checkStartLine(id, title), provider),
      onCheckEnd: (result) => {
        for (const body of checkEndLines(result)) emit(body, provider);
      },
      onWebhook: (entry) => emit(webhookLine(entry), provider),
    }),
    runEnd: (report, provider, ending = {}) => emit(runEndLine(report, ending), provider),
    runFailed: (error, durationMs, provider) => emit(runErrorLine(error, durationMs), provider),
    fleetStart: (info) => emit(fleetStartLine(info)),
    fleetEnd: (report, ending = {}) => emit(fleetEndLine(report, ending)),
    close: async () => {
      stopped = true;
      sink.close();
    },
  };
}
