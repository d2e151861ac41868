import type { FleetProviderResult, FleetReport } from './fleet-report.js';
import type { WaiverOutcome } from './waivers.js';

/**
 * A fleet's counts and verdict from its providers; the same rules for batch, merge-reports and a stored fleet.json
 * read back. A provider not run or failed, or a waiver that is stale, unmatched or expired, fails the gate; a
 * stopped batch is no passing verdict, even when its providers all finished.
 */
export function summarizeFleet(
  providers: readonly FleetProviderResult[],
  waivers: readonly WaiverOutcome[],
  interruptedBy?: string,
): Pick<FleetReport, 'verdict' | 'summary'> {
  const count = (verdict: FleetProviderResult['verdict']): number =>
    providers.filter((p) => p.verdict === verdict).length;
  const waivedChecks = providers.reduce(
    (n, p) => n + (p.report?.checks.filter((c) => c.waiver !== undefined).length ?? 0),
    0,
  );
  const summary = {
    providers: providers.length,
    passed: count('PASS'),
    failed: count('FAIL'),
    notRun: count('NOT_RUN'),
    waivedChecks,
  };
  const green =
    interruptedBy === undefined && summary.passed === providers.length && waivers.every((w) => w.state === 'applied');
  return { verdict: green ? 'PASS' : 'FAIL', summary };
}
