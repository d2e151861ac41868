/** Requirement ids of spec/requirements.yaml ("QUOTE-BINDING"): the contract rule a finding stands on. */
export type RequirementId = string;

/** One problem (fail) or ambiguity (warn), naming the requirement it stands on. */
export interface Finding {
  severity: 'fail' | 'warn';
  requirement: RequirementId;
  message: string;
}

/** A finding as a check records it; without a requirement it stands on the check's primary one. */
export type RecordedFinding = Omit<Finding, 'requirement'> & { requirement?: RequirementId };

/** What a report says of a requirement it cites (from spec/requirements.yaml). */
export interface RequirementSummary {
  section: string;
  quote: string;
}
