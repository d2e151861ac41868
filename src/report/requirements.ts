import type { RequirementId } from '../model/findings.js';
import type { CheckResult, RunReport } from '../model/report.js';

/** A requirement cited by a report line: its id and, when the report knows it, the contract section. */
export interface CitedRequirement {
  id: RequirementId;
  section?: string;
}

const cite = (report: Pick<RunReport, 'requirements'>, id: RequirementId): CitedRequirement => {
  const section = report.requirements[id]?.section;
  return section === undefined ? { id } : { id, section };
};

/** The requirements a check's failures stand on, in order of first appearance. */
export function violatedRequirements(report: Pick<RunReport, 'requirements'>, check: CheckResult): CitedRequirement[] {
  const ids = [...new Set(check.findings.filter((f) => f.severity === 'fail').map((f) => f.requirement))];
  return ids.map((id) => cite(report, id));
}

/** "QUOTE-TOTAL (Endpoints › Provider route behaviour rules)" */
export const citationText = (r: CitedRequirement): string => (r.section ? `${r.id} (${r.section})` : r.id);
