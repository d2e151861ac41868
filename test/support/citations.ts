import { checkById } from '../../src/checks/framework/registry.js';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import type { FaultSpec } from '../../src/reference-provider/index.js';

/**
 * Findings that cite a requirement their check does not declare (`requirements` of its CheckDefinition):
 * `check: requirement (severity) message`. A finding must stand on a rule its check says it verifies.
 */
export function undeclaredCitations(report: RunReport): string[] {
  return report.checks.flatMap((result) => {
    const declared = new Set<string>(checkById(result.id)?.requirements ?? []);
    return result.findings
      .filter((f) => f.requirement !== undefined && !declared.has(f.requirement))
      .map((f) => `${result.id}: ${f.requirement} (${f.severity}) ${f.message}`);
  });
}

/**
 * The failures of a fault's check that stand on a rule the fault does not break: `requirement: message`.
 * A fault breaks one rule (its `requirement`, plus any `alsoBreaks` it names as a consequence), so every
 * failure it causes must cite one of those; a failure citing another rule cites a sentence that is not about it.
 */
export function strayFailCitations(result: CheckResult, fault: FaultSpec): string[] {
  const broken = new Set<string>([fault.requirement, ...(fault.alsoBreaks ?? [])]);
  return result.findings
    .filter((f) => f.severity === 'fail' && !broken.has(f.requirement))
    .map((f) => `${f.requirement}: ${f.message}`);
}
