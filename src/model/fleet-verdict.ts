import type { FleetProviderResult, FleetReport } from './fleet-report.js';
import { deriveFleetVerdict } from './verdict.js';
import type { WaiverOutcome } from './waivers.js';

/**
 * A fleet's counts and verdict from its providers (deriveFleetVerdict); the same rules for batch, merge-reports and
 * a stored fleet.json read back.
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
    partial: count('PARTIAL'),
    interrupted: count('INTERRUPTED'),
    incomplete: count('INCOMPLETE'),
  };
  const verdict = deriveFleetVerdict({ providers: providers.map((p) => p.verdict), waivers, interruptedBy });
  return { verdict, summary };
}
