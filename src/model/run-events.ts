import type { CheckId } from './check-ids.js';
import type { CheckProgress, CheckResult, RunBeginInfo, RunStartInfo, WebhookTimelineEntry } from './report.js';
import type { WaiverOutcome } from './waivers.js';

/**
 * The live events of one certification run, declared once: the runner emits them, and every output (the console,
 * the NDJSON event stream, the fleet progress, the report assembler) listens through `fanOutRunEvents`. Every
 * listener is optional, so a run does no work (e.g. subscribing to webhooks) nobody listens to.
 * - onRunBegin: at once, before the first request;
 * - onRunStart: GET /provider-info decided the profile and the checks;
 * - onCheckStart / onCheckProgress / onCheckEnd: each check (results masked, with a waiver preview);
 * - onWebhook: each webhook request the receiver records during the run (masked, as the report's timeline shows it).
 * The run's end is the report itself (its verdict, `interruptedBy` and waiver outcomes); the outputs that print it
 * take it with a `RunEnding`.
 */
export interface RunEvents {
  onRunBegin?(info: RunBeginInfo): void;
  onRunStart?(info: RunStartInfo): void;
  onCheckStart?(id: CheckId, title: string): void;
  /** A running check's wait changed (what it awaits, how long at most). */
  onCheckProgress?(id: CheckId, update: CheckProgress): void;
  onCheckEnd?(result: CheckResult): void;
  onWebhook?(entry: WebhookTimelineEntry): void;
}

/** How a run (or a fleet) ended, beside its report: the signal that stopped it, and the waiver outcomes when not the report's own. */
export interface RunEnding {
  /** SIGINT for Ctrl-C, SIGTERM. */
  interruptedBy?: string;
  waivers?: readonly WaiverOutcome[];
}

const EVENT_NAMES = [
  'onRunBegin',
  'onRunStart',
  'onCheckStart',
  'onCheckProgress',
  'onCheckEnd',
  'onWebhook',
] as const satisfies readonly (keyof RunEvents)[];

/**
 * The one multiplexer: a listener that calls each given listener in order. Only events some listener has are
 * present, so the run still does no work nobody listens to.
 */
export function fanOutRunEvents(...all: readonly (RunEvents | undefined)[]): RunEvents {
  const sets = all.filter((h): h is RunEvents => h !== undefined);
  const out: Record<string, (...args: never[]) => void> = {};
  for (const name of EVENT_NAMES) {
    const listeners = sets.flatMap((h) => {
      const listener = h[name] as ((...args: unknown[]) => void) | undefined;
      return listener ? [listener.bind(h)] : [];
    });
    if (listeners.length > 0) out[name] = (...args: never[]) => listeners.forEach((l) => l(...args));
  }
  return out as RunEvents;
}
