/** Requirement ids of spec/requirements.yaml ("QUOTE-BINDING"): the contract rule a finding stands on. */
export type RequirementId = string;

/** The part of a JSON answer a finding is about, pretty-printed around its JSON pointer (util/json-excerpt.ts). */
export interface FindingExcerpt {
  /** The JSON pointer of the value the finding is about ("/offerings/4/basePrice"). */
  pointer: string;
  /** The pointer of what `text` shows: the value's container ("/offerings/4"), or "(root)". */
  at: string;
  /** Pretty-printed, the value in full and marked "← here", its siblings shortened. */
  text: string;
}

/** One problem (fail) or ambiguity (warn), naming the requirement it stands on. */
export interface Finding {
  severity: 'fail' | 'warn';
  requirement: RequirementId;
  message: string;
  /** For a schema finding: the answer around the value, whatever the body's size (the evidence body is cut). */
  excerpt?: FindingExcerpt;
}

/** A finding as a check records it; without a requirement it stands on the check's primary one. */
export type RecordedFinding = Omit<Finding, 'requirement'> & { requirement?: RequirementId };

/** What a report says of a requirement it cites (from spec/requirements.yaml). */
export interface RequirementSummary {
  section: string;
  quote: string;
}
