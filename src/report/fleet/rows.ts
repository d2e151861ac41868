import type { FleetProviderResult, FleetReport } from '../../model/fleet-report.js';
import type { CheckResult, RunReport } from '../../model/report.js';
import type { WaiverOutcome } from '../../model/waivers.js';
import { formatDuration } from '../format.js';
import { maskReport } from '../mask.js';
import { isUnwaivedProblem, waivedChecks, waiverLabel } from '../waivers.js';

export { failingWaivers } from '../waivers.js';

/** One line of every fleet summary table: a provider with its counts. */
export interface FleetRow {
  slug: string;
  baseUrl: string;
  verdict: FleetProviderResult['verdict'];
  pass: number;
  fail: number;
  skip: number;
  error: number;
  waived: number;
  durationMs?: number;
}

export function fleetRow(result: FleetProviderResult): FleetRow {
  const { report } = result;
  const base = { slug: result.slug, baseUrl: result.baseUrl, verdict: result.verdict };
  if (!report) return { ...base, pass: 0, fail: 0, skip: 0, error: 0, waived: 0 };
  return { ...base, ...report.summary, waived: waivedChecks(report).length, durationMs: report.durationMs };
}

/** The count and duration cells every fleet table shows after the provider and its verdict. */
export const countCells = (row: FleetRow): string[] => [
  String(row.pass),
  String(row.fail),
  String(row.skip),
  String(row.error),
  String(row.waived),
  row.durationMs === undefined ? '—' : formatDuration(row.durationMs),
];

/** Checks that fail the gate: failed or errored and not covered by a waiver. */
export const gateFailures = (report: RunReport): CheckResult[] => report.checks.filter(isUnwaivedProblem);

/** Checks that could not test their rule within the run's limits: no failure, but they keep the gate shut. */
export const untestedChecks = (report: RunReport): CheckResult[] =>
  report.checks.filter((c) => c.status === 'untested');

/** The fleet's verdict as its renderers headline it; only PASS passes. */
export const fleetVerdictWord = (report: FleetReport): { word: string; passed: boolean } => ({
  word: { PASS: 'PASSED', FAIL: 'FAILED', INTERRUPTED: 'INTERRUPTED', INCOMPLETE: 'INCOMPLETE', PARTIAL: 'PARTIAL' }[
    report.verdict
  ],
  passed: report.verdict === 'PASS',
});

/**
 * A copy of the fleet report with every provider's run report masked (credential headers by name, whatever the
 * engine did before); every fleet renderer starts from this, as single-run renderers start from maskReport.
 */
export function maskFleetReport(report: FleetReport): FleetReport {
  return {
    ...report,
    providers: report.providers.map((p) => (p.report ? { ...p, report: maskReport(p.report) } : p)),
  };
}

/** "PASS  3 providers: 2 passed, 1 failed, 0 not run; 1 waived check" */
export function fleetSummaryText(report: FleetReport): string {
  const { providers, passed, failed, notRun, waivedChecks, incomplete } = report.summary;
  const waived = `${waivedChecks} waived ${waivedChecks === 1 ? 'check' : 'checks'}`;
  const notTested = incomplete ? `, ${incomplete} incomplete` : '';
  return `${providers} ${providers === 1 ? 'provider' : 'providers'}: ${passed} passed, ${failed} failed${notTested}, ${notRun} not run; ${waived}`;
}

/** "shard 2/3", "merged shards 1/3, 3/3 (missing 2/3)", or "" for a whole fleet. */
export function scopeText(report: FleetReport): string {
  if (report.shard) return `shard ${report.shard.index}/${report.shard.total}`;
  const merged = report.mergedShards ?? [];
  if (merged.length === 0) return '';
  const total = merged[0]?.total ?? 0;
  const have = new Set(merged.map((s) => s.index));
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !have.has(i));
  const list = merged.map((s) => `${s.index}/${s.total}`).join(', ');
  return `merged shards ${list}${missing.length > 0 ? ` (missing ${missing.map((i) => `${i}/${total}`).join(', ')})` : ''}`;
}

/**
 * The file name (without extension) of a provider's own reports under providers/: the slug when it is a plain
 * name (letters, digits, `-`), otherwise every other character written as `_xx` (hex; `_` too, so two slugs
 * never share a file) and no slug can leave the folder.
 */
export function providerFileBase(slug: string): string {
  const safe = slug.replace(/[^A-Za-z0-9-]/g, (ch) => `_${ch.codePointAt(0)?.toString(16) ?? ''}`);
  return safe === '' ? '_' : safe;
}

/** How a waiver names what it covers: "quote-math [QUOTE-TOTAL] on north-kitchen", "… on every provider". */
export const waiverTarget = (w: WaiverOutcome): string => `${waiverLabel(w)}${w.provider ? '' : ' on every provider'}`;
