import { checkById } from '../../src/checks/framework/registry.js';
import type { RunReport } from '../../src/model/report.js';

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
