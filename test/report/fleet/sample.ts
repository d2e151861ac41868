import { CHECKS } from '../../../src/checks/framework/registry.js';
import type { FleetProviderResult, FleetReport } from '../../../src/model/fleet-report.js';
import type { CheckResult, RunReport } from '../../../src/model/report.js';
import { countChecks, deriveRunVerdict } from '../../../src/model/verdict.js';
import type { WaiverOutcome } from '../../../src/model/waivers.js';
import { certify } from '../../support/certify.js';

/** Real run reports of the reference provider: one passing, one failing quote-math (its total is wrong). */
export async function realReports(): Promise<{ passing: RunReport; failing: RunReport }> {
  const only = ['metadata', 'catalog', 'quote-math'] as const;
  const [passing, failing] = await Promise.all([
    certify({ only: [...only] }),
    certify({ only: [...only], faults: ['quote-total-wrong'] }),
  ]);
  return { passing: asFullRun(passing.report), failing: asFullRun(failing.report) };
}

/**
 * The sample runs check three checks for speed; the fleet formats are shown them as full runs: the checks the
 * selection left out are recorded as skipped ("not run in this sample"), so the report stays consistent with itself
 * (a stored report whose selection disagrees with its checks is refused), with the verdict derived again.
 */
function asFullRun(report: RunReport): RunReport {
  const present = new Set(report.checks.map((c) => c.id));
  const skipped: CheckResult[] = CHECKS.filter((def) => !present.has(def.id)).map((def) => ({
    id: def.id,
    title: def.title,
    rule: def.rule,
    requirements: [...def.requirements],
    status: 'skip',
    message: 'not run in this sample',
    evidence: [],
    findings: [],
    durationMs: 0,
  }));
  const checks = [...report.checks, ...skipped];
  const { leftOut: _leftOut, ...rest } = report;
  const full = { ...rest, inputs: { ...report.inputs, only: null, skip: null }, checks, summary: countChecks(checks) };
  return { ...full, verdict: deriveRunVerdict(full) };
}

/** A report as if the provider with this slug had been certified. */
export function asProvider(report: RunReport, slug: string): RunReport {
  return { ...report, provider: { ...report.provider, slug } };
}

export function providerResult(slug: string, report: RunReport | undefined, error?: string): FleetProviderResult {
  const baseUrl = report?.provider.baseUrl ?? `http://127.0.0.1:1/${slug}`;
  const verdict = report ? report.verdict : 'NOT_RUN';
  return {
    slug,
    baseUrl,
    verdict,
    ...(report ? { report: asProvider(report, slug) } : {}),
    ...(error === undefined ? {} : { error }),
  };
}

export const DIGEST = 'a'.repeat(64);

/** A fleet report around these providers, with counts and verdict as batch computes them. */
export function fleetOf(
  providers: FleetProviderResult[],
  extra: Partial<FleetReport> & { waivers?: WaiverOutcome[] } = {},
): FleetReport {
  const waivers = extra.waivers ?? [];
  const count = (v: FleetProviderResult['verdict']): number => providers.filter((p) => p.verdict === v).length;
  const waivedChecks = providers.reduce(
    (n, p) => n + (p.report?.checks.filter((c) => c.waiver !== undefined).length ?? 0),
    0,
  );
  const green = count('PASS') === providers.length && waivers.every((w) => w.state === 'applied');
  return {
    reportVersion: 1,
    kind: 'fleet',
    tool: { name: 'provcert', version: '0.1.0' },
    fleet: { name: 'food-partners', digest: DIGEST, slugs: providers.map((p) => p.slug).sort() },
    verdict: green ? 'PASS' : 'FAIL',
    startedAt: '2025-03-01T10:00:00.000Z',
    finishedAt: '2025-03-01T10:00:09.500Z',
    durationMs: 9500,
    summary: {
      providers: providers.length,
      passed: count('PASS'),
      failed: count('FAIL'),
      notRun: count('NOT_RUN'),
      waivedChecks,
    },
    providers,
    waivers,
    ...extra,
  };
}

export const staleWaiver: WaiverOutcome = {
  check: 'quote-math',
  provider: 'north-kitchen',
  reason: 'rounding fix ships in sprint 12',
  until: '2099-12-31',
  state: 'stale',
  message: 'quote-math passed on north-kitchen: remove this waiver',
};
