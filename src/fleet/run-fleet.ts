import type { Clock } from '../checks/framework/types.js';
import type { Contract } from '../contract/contract.js';
import type { FleetIdentity, FleetProviderResult, FleetReport, Shard } from '../model/fleet-report.js';
import { summarizeFleet } from '../model/fleet-verdict.js';
import type { RunConfig } from '../model/run-config.js';
import type { ExpectedFailure, WaiverOutcome } from '../model/waivers.js';
import { inboxFor } from '../model/webhooks.js';
import { type RunDeps, runCertification } from '../runner/run.js';
import { evaluateWaivers, refuseDistantWaivers, utcDate } from '../runner/waivers.js';
import { type CoreServer, startCoreServer } from '../server/core-server.js';
import { systemClock } from '../util/clock.js';
import { toolVersion } from '../util/package-root.js';
import { Redactor, urlSecrets } from '../util/redact.js';

/** One provider of the batch: ready to run, or with the reason it cannot be (e.g. its credential is not set). */
export interface FleetMember {
  slug: string;
  baseUrl: string;
  run?: { config: RunConfig; credential: string; webhookSecret: string };
  error?: string;
}

export interface FleetHooks {
  /** The receiver listens: providers post to `urlFor(slug)`. */
  onReceiverReady?(receiver: { url: string; urlFor(slug: string): string }): void;
  onProviderStart?(slug: string): void;
  /** A provider's result as soon as it is known (with its own waivers; the fleet's are judged at the end). */
  onProviderEnd?(result: FleetProviderResult): void;
  /** Live hooks of one provider's run (check start and end, progress), e.g. for an event stream. */
  runHooks?(slug: string): RunDeps['hooks'] | undefined;
}

export interface RunFleetInput {
  identity: FleetIdentity;
  /** The providers to certify now (the shard's, when sharded), in fleet order. */
  members: readonly FleetMember[];
  contract: Contract;
  webhookHost: string;
  webhookPort: number;
  /** Providers certified at once. */
  concurrency: number;
  expectedFailures: readonly ExpectedFailure[];
  shard?: Shard;
  /** Ctrl-C / SIGTERM: running providers finish their report early, the rest are NOT_RUN. */
  signal?: AbortSignal;
  hooks?: FleetHooks;
  clock?: Clock;
}

export const DEFAULT_FLEET_CONCURRENCY = 8;

const firstLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';

/** Every credential and webhook secret of the fleet: one provider's report may not show another's secret. */
function fleetRedactor(members: readonly FleetMember[]): Redactor {
  return new Redactor(
    members.flatMap((m) => [...urlSecrets(m.baseUrl), ...(m.run ? [m.run.credential, m.run.webhookSecret] : [])]),
  );
}

async function certifyMember(
  member: FleetMember,
  receiver: CoreServer | undefined,
  input: RunFleetInput,
): Promise<FleetProviderResult> {
  const base = { slug: member.slug, baseUrl: member.baseUrl };
  if (!member.run || !receiver) return { ...base, verdict: 'FAIL', error: member.error ?? 'not configured' };
  const hooks = input.hooks?.runHooks?.(member.slug);
  try {
    const report = await runCertification(member.run.config, {
      contract: input.contract,
      credential: member.run.credential,
      webhookSecret: member.run.webhookSecret,
      inbox: inboxFor(receiver, member.slug),
      // The fleet file's slug is the member's identity: provider-info must answer the same (metadata).
      expectedSlug: member.slug,
      // The waivers naming this provider are judged with its run, as `run` judges them; the provider-less ones
      // concern the whole fleet and are judged over it at the end.
      expectedFailures: input.expectedFailures.filter((w) => w.provider === member.slug),
      ...(hooks ? { hooks } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.clock ? { clock: input.clock } : {}),
    });
    return { ...base, verdict: report.verdict, report };
  } catch (e) {
    // runCertification reports provider faults itself; what escapes is ours, and must not stop the others.
    return { ...base, verdict: 'FAIL', error: `certification could not run: ${firstLine(e)}` };
  }
}

/** Runs `work` over the items with at most `limit` at once; results keep the items' order. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

const signalName = (reason: unknown): string => (typeof reason === 'string' ? reason : 'interrupt');

/**
 * Certifies a fleet in one process: one embedded receiver routes each webhook by slug and verifies it with that
 * provider's own secret; each provider's run sees only its own events; up to `concurrency` providers run at once,
 * so their quote-expiry and webhook waits overlap. Never throws for a provider's problem: it is that provider's
 * result. A receiver that cannot listen (port in use) does throw, before any provider runs.
 */
export async function runFleet(input: RunFleetInput): Promise<FleetReport> {
  const clock = input.clock ?? systemClock;
  const startedAt = new Date(clock.now());
  // Before the receiver starts: a provider run in strict mode refuses a distant waiver that concerns it.
  for (const member of input.members)
    if (member.run?.config.strict === true)
      refuseDistantWaivers(input.expectedFailures, utcDate(startedAt), member.slug);
  const started = performance.now();
  const redactor = fleetRedactor(input.members);
  const secrets = new Map(input.members.flatMap((m) => (m.run ? [[m.slug, m.run.webhookSecret] as const] : [])));
  const receiver =
    secrets.size === 0
      ? undefined
      : await startCoreServer({
          host: input.webhookHost,
          port: input.webhookPort,
          contract: input.contract,
          secretFor: (slug) => secrets.get(slug),
          portSetting: 'webhookPort (in the fleet file)',
        });
  let results: FleetProviderResult[];
  try {
    if (receiver) input.hooks?.onReceiverReady?.({ url: receiver.url, urlFor: (s) => receiver.urlFor(s) });
    results = await pool(input.members, input.concurrency, async (member) => {
      if (input.signal?.aborted) return { slug: member.slug, baseUrl: member.baseUrl, verdict: 'NOT_RUN' as const };
      input.hooks?.onProviderStart?.(member.slug);
      const result = await certifyMember(member, receiver, input);
      input.hooks?.onProviderEnd?.(redactor.deep(result));
      return result;
    });
  } finally {
    await receiver?.close();
  }
  return redactor.deep(fleetReport(input, results, { startedAt, started, clock }));
}

function fleetReport(
  input: RunFleetInput,
  results: FleetProviderResult[],
  time: { startedAt: Date; started: number; clock: Clock },
): FleetReport {
  const finishedAt = new Date(time.clock.now());
  const here = new Set(input.members.map((m) => m.slug));
  // A shard judges only the waivers that can concern its providers.
  const waivers = input.expectedFailures.filter((w) => w.provider === undefined || here.has(w.provider));
  let outcomes: WaiverOutcome[] = [];
  if (waivers.length > 0) {
    const judged = evaluateWaivers(
      waivers,
      results.map((r) => ({ slug: r.slug, ...(r.report ? { report: r.report } : {}) })),
      utcDate(time.startedAt), // waivers are judged on the day the batch started (UTC)
      input.shard ? { partial: true } : {},
    );
    outcomes = judged.outcomes;
    results = results.map((r, i) => {
      const report = judged.reports[i];
      return report && r.verdict !== 'NOT_RUN' ? { ...r, report, verdict: r.error ? 'FAIL' : report.verdict } : r;
    });
  }
  const interruptedBy = input.signal?.aborted ? signalName(input.signal.reason) : undefined;
  const { verdict, summary } = summarizeFleet(results, outcomes, interruptedBy);
  return {
    reportVersion: 1,
    kind: 'fleet',
    tool: { name: 'provcert', version: toolVersion },
    fleet: input.identity,
    ...(input.shard ? { shard: { ...input.shard } } : {}),
    verdict,
    startedAt: time.startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: Math.round(performance.now() - time.started),
    summary,
    providers: results,
    waivers: outcomes,
    // The whole list (all shards): merge-reports judges it again over the merged fleet.
    ...(input.expectedFailures.length > 0 ? { expectedFailures: [...input.expectedFailures] } : {}),
    ...(interruptedBy ? { interruptedBy } : {}),
  };
}
