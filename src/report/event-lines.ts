import { CONTRACT_VERSION } from '../model/contract-constants.js';
import type { FleetReport, Shard } from '../model/fleet-report.js';
import type { CheckResult, RunBeginInfo, RunReport, RunStartInfo, WebhookTimelineEntry } from '../model/report.js';
import type { RunEnding } from '../model/run-events.js';
import { toolVersion } from '../util/package-root.js';

/**
 * The body of each event line (spec/events.schema.json), without the envelope (`type`, `time`, `seq`,
 * `provider`) the stream adds. Each builder takes what a run hook or a report already holds.
 */

/** The version of the line format; run-start and fleet-start carry it. */
export const EVENTS_VERSION = 1;

export type EventBody = { type: EventType } & Record<string, unknown>;

export type EventType =
  | 'run-start'
  | 'run-plan'
  | 'check-start'
  | 'check-end'
  | 'finding'
  | 'webhook'
  | 'run-end'
  | 'fleet-start'
  | 'fleet-end';

/** What `provcert batch` knows when it starts. */
export interface FleetStartInfo {
  /** `name` from the fleet file. */
  name: string;
  /** How many providers this process certifies (the shard's, when sharded). */
  providers: number;
  concurrency?: number;
  shard?: Shard;
}

const tool = { name: 'provcert', version: toolVersion } as const;

export const runStartLine = (info: RunBeginInfo): EventBody => ({
  type: 'run-start',
  eventsVersion: EVENTS_VERSION,
  tool,
  contract: { version: CONTRACT_VERSION },
  baseUrl: info.baseUrl,
  timeoutMs: info.timeoutMs,
});

export const runPlanLine = (info: RunStartInfo): EventBody => ({
  type: 'run-plan',
  baseUrl: info.baseUrl,
  webhookUrl: info.webhookUrl,
  ...(info.slug ? { slug: info.slug } : {}),
  profile: info.profile,
  checks: info.checks,
});

export const checkStartLine = (id: string, title: string): EventBody => ({ type: 'check-start', check: id, title });

/** check-end, then one finding line per finding (its requirement and text). */
export function checkEndLines(result: CheckResult): EventBody[] {
  const waiver = result.waiver;
  const end: EventBody = {
    type: 'check-end',
    check: result.id,
    title: result.title,
    status: result.status,
    message: result.message,
    durationMs: Math.max(0, Math.round(result.durationMs)),
    ...(waiver ? { waiver: { reason: waiver.reason, until: waiver.until } } : {}),
  };
  const findings = result.findings.map(
    (f): EventBody => ({
      type: 'finding',
      check: result.id,
      severity: f.severity,
      requirement: f.requirement,
      text: f.message,
    }),
  );
  return [end, ...findings];
}

export const webhookLine = (entry: WebhookTimelineEntry): EventBody => ({ type: 'webhook', ...entry });

const endingFields = (ending: RunEnding): Record<string, unknown> => ({
  ...(ending.waivers && ending.waivers.length > 0 ? { waivers: ending.waivers } : {}),
  ...(ending.interruptedBy ? { interruptedBy: ending.interruptedBy } : {}),
});

export function runEndLine(report: RunReport, ending: RunEnding): EventBody {
  // The waiver outcomes the report carries once expected failures were applied to it, unless given.
  const waivers = ending.waivers ?? report.waivers;
  return {
    type: 'run-end',
    verdict: report.verdict,
    summary: report.summary,
    durationMs: Math.max(0, Math.round(report.durationMs)),
    ...endingFields({ ...ending, ...(waivers ? { waivers } : {}) }),
    // What an interrupted run did not run, as its report records it.
    ...(report.notRun !== undefined ? { notRun: report.notRun } : {}),
  };
}

/** run-end of a run that threw before it had a report: FAIL, nothing counted, the error's first line. */
export const runErrorLine = (error: string, durationMs: number): EventBody => ({
  type: 'run-end',
  verdict: 'FAIL',
  summary: { pass: 0, fail: 0, skip: 0, error: 0 },
  durationMs: Math.max(0, Math.round(durationMs)),
  error,
});

export const fleetStartLine = (info: FleetStartInfo): EventBody => ({
  type: 'fleet-start',
  eventsVersion: EVENTS_VERSION,
  tool,
  name: info.name,
  providers: info.providers,
  ...(info.concurrency !== undefined ? { concurrency: info.concurrency } : {}),
  ...(info.shard ? { shard: { index: info.shard.index, total: info.shard.total } } : {}),
});

export function fleetEndLine(report: FleetReport, ending: RunEnding): EventBody {
  const interruptedBy = ending.interruptedBy ?? report.interruptedBy;
  return {
    type: 'fleet-end',
    verdict: report.verdict,
    summary: report.summary,
    durationMs: Math.max(0, Math.round(report.durationMs)),
    providers: report.providers.map((p) => ({
      slug: p.slug,
      verdict: p.verdict,
      ...(p.error ? { error: p.error } : {}),
    })),
    ...endingFields({ waivers: ending.waivers ?? report.waivers, ...(interruptedBy ? { interruptedBy } : {}) }),
  };
}
