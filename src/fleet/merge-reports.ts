import { SettingError, UsageError } from '../model/errors.js';
import type { FleetProviderResult, FleetReport, Shard } from '../model/fleet-report.js';
import { summarizeFleet } from '../model/fleet-verdict.js';
import type { RunReport } from '../model/report.js';
import type { ExpectedFailure, WaiverOutcome } from '../model/waivers.js';
import { evaluateWaivers, utcDate } from '../runner/waivers.js';
import { MAX_SHARDS, shardOf } from './shard.js';

export interface MergeOptions {
  /** The date waivers are judged on (YYYY-MM-DD, UTC); default: the day the earliest shard started. */
  today?: string;
  /** Told each problem that does not stop the merge (a missing shard), one line each. */
  warn?: (line: string) => void;
}

/** The shards a report stands for: its own, those it merged, or the whole fleet as shard 1/1. */
function shardsOf(report: FleetReport): Shard[] {
  if (report.shard) return [report.shard];
  if (report.mergedShards && report.mergedShards.length > 0) return report.mergedShards;
  return [{ index: 1, total: 1 }];
}

const shardName = (s: Shard): string => `${s.index}/${s.total}`;
const shardsName = (shards: readonly Shard[]): string => shards.map(shardName).join(', ');

/** Refuses reports that cannot be one fleet's shards: other fleet, other provcert, other split, overlaps. */
function checkCompatible(reports: readonly FleetReport[]): Shard[] {
  const first = reports[0] as FleetReport;
  const firstShards = shardsName(shardsOf(first));
  for (const report of reports.slice(1)) {
    const which = `shard ${shardsName(shardsOf(report))}`;
    if (report.fleet.name !== first.fleet.name)
      throw new UsageError(
        `cannot merge reports of different fleets: "${first.fleet.name}" (shard ${firstShards}) and "${report.fleet.name}" (${which})`,
      );
    if (report.fleet.digest !== first.fleet.digest)
      throw new UsageError(
        `cannot merge reports of different versions of fleet "${first.fleet.name}": the fleet file changed between ` +
          `shard ${firstShards} and ${which} (digest ${first.fleet.digest.slice(0, 12)} ≠ ${report.fleet.digest.slice(0, 12)}); run every shard on the same fleet file`,
      );
    if (report.tool.version !== first.tool.version)
      throw new UsageError(
        `cannot merge reports of different provcert versions: ${first.tool.version} (shard ${firstShards}) and ${report.tool.version} (${which}); run every shard with the same provcert`,
      );
  }
  const shards = reports.flatMap(shardsOf);
  // A report's own numbers are not trusted: a total of 2e9 would size every list after it.
  const outOfRange = shards.find(
    (s) => !Number.isSafeInteger(s.total) || s.total < 1 || s.total > MAX_SHARDS || s.index < 1 || s.index > s.total,
  );
  if (outOfRange)
    throw new UsageError(
      `shard ${shardName(outOfRange)} is not a shard batch writes: a fleet is split into 1 to ${MAX_SHARDS} shards, numbered from 1`,
    );
  const totals = [...new Set(shards.map((s) => s.total))];
  if (totals.length > 1)
    throw new SettingError(
      'shard',
      (name) =>
        `cannot merge shards of different splits: ${shardsName(shards)}; every shard must be run with the same ${name} …/n`,
    );
  const seen = new Set<number>();
  for (const shard of shards) {
    if (seen.has(shard.index))
      throw new UsageError(`shard ${shardName(shard)} is given twice; pass each shard's fleet.json once`);
    seen.add(shard.index);
  }
  const owner = new Map<string, string>();
  for (const report of reports) {
    for (const provider of report.providers) {
      const other = owner.get(provider.slug);
      const here = shardsName(shardsOf(report));
      if (other !== undefined)
        throw new UsageError(
          `provider ${provider.slug} is in two shard reports (${other} and ${here}); each provider must be certified in one shard only`,
        );
      owner.set(provider.slug, here);
    }
  }
  return [...shards].sort((a, b) => a.index - b.index);
}

/** The expected failures to judge: the fleet file's list a shard carries, else those its outcomes describe. */
function waiverList(reports: readonly FleetReport[]): ExpectedFailure[] {
  const carried = reports.find((r) => r.expectedFailures !== undefined)?.expectedFailures;
  if (carried) return carried;
  const unique = new Map<string, ExpectedFailure>();
  for (const outcome of reports.flatMap((r) => r.waivers)) {
    const { state: _state, message: _message, ...waiver } = outcome;
    unique.set(
      JSON.stringify([waiver.check, waiver.requirement, waiver.provider, waiver.reason, waiver.until]),
      waiver,
    );
  }
  return [...unique.values()];
}

/** YYYY-MM-DD of now, in UTC (waivers hold through their whole `until` day, UTC). */
/**
 * The shard reports of one fleet as one fleet report, as if one batch had certified every provider. Refuses
 * (UsageError) reports of different fleets, fleet file versions or provcert versions, of different shard
 * totals, a shard given twice and a provider in two shards. A missing shard is warned about, not refused: the
 * fleet's providers no report covers are NOT_RUN, so a lost shard still fails the gate. Waivers are judged
 * again over the whole fleet (a waiver one shard saw no failure for may apply in another).
 */
export function mergeFleetReports(reports: readonly FleetReport[], options: MergeOptions = {}): FleetReport {
  const first = reports[0];
  if (!first) throw new UsageError('merge-reports needs at least one fleet.json');
  const shards = checkCompatible(reports);
  const total = shards[0]?.total ?? 1;
  const present = new Set(shards.map((s) => s.index));
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !present.has(i));

  const bySlug = new Map(reports.flatMap((r) => r.providers).map((p) => [p.slug, p]));
  const slugs = [...new Set([...first.fleet.slugs, ...bySlug.keys()])];
  const notMerged = (slug: string): FleetProviderResult => ({
    slug,
    baseUrl: first.fleet.baseUrls?.[slug] ?? '',
    verdict: 'NOT_RUN',
    error: `not run: the report of its shard ${shardOf(slug, total)}/${total} was not merged`,
  });
  for (const index of missing) {
    const lost = first.fleet.slugs.filter((slug) => shardOf(slug, total) === index);
    options.warn?.(
      `shard ${index}/${total} is missing: ${lost.length > 0 ? `its ${lost.length === 1 ? 'provider' : 'providers'} ${lost.join(', ')} ${lost.length === 1 ? 'is' : 'are'} reported NOT_RUN` : 'it holds no provider of this fleet'}`,
    );
  }
  const merged = slugs.map((slug) => bySlug.get(slug) ?? notMerged(slug));

  const startedAt = reports.map((r) => r.startedAt).sort()[0] ?? first.startedAt;
  // As in a batch, waivers are judged on the day the fleet's certification started: a merge run later gives the same verdict.
  const judged = judgeWaivers(waiverList(reports), merged, options.today ?? utcDate(new Date(startedAt)));
  const finishedAt =
    reports
      .map((r) => r.finishedAt)
      .sort()
      .at(-1) ?? first.finishedAt;
  const interrupted = reports
    .filter((r) => r.interruptedBy !== undefined)
    .map((r) => `shard ${shardsName(shardsOf(r))}: ${r.interruptedBy}`);
  // A stopped shard is no verdict, even when its providers all finished.
  const interruptedBy = interrupted.length > 0 ? interrupted.join('; ') : undefined;
  const summary = summarizeFleet(judged.providers, judged.outcomes, interruptedBy);
  const expectedFailures = reports.find((r) => r.expectedFailures !== undefined)?.expectedFailures;
  return {
    reportVersion: 1,
    kind: 'fleet',
    tool: first.tool,
    fleet: first.fleet,
    mergedShards: shards,
    // A stopped shard is no verdict, even when its providers all finished (summarizeFleet).
    ...summary,
    startedAt,
    finishedAt,
    durationMs: Math.max(0, Date.parse(finishedAt) - Date.parse(startedAt)),
    providers: judged.providers,
    waivers: judged.outcomes,
    ...(expectedFailures ? { expectedFailures } : {}),
    ...(interruptedBy ? { interruptedBy } : {}),
  };
}

/** The providers with their reports' waivers judged over the whole fleet, and what became of each waiver. */
function judgeWaivers(
  waivers: ExpectedFailure[],
  providers: FleetProviderResult[],
  today: string,
): { providers: FleetProviderResult[]; outcomes: WaiverOutcome[] } {
  const runs = providers.map((p) => (p.report ? { slug: p.slug, report: p.report } : { slug: p.slug }));
  const { reports, outcomes } = evaluateWaivers(waivers, runs, today, { partial: false });
  const rejudged = providers.map((p, i): FleetProviderResult => {
    const report: RunReport | undefined = reports[i];
    if (!report || !p.report) return p;
    return { ...p, report, verdict: report.verdict };
  });
  return { providers: rejudged, outcomes };
}
