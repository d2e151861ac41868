import type { CheckId, CheckStatus } from './check-ids.js';
import type { AuthMethod, Profile } from './contract-constants.js';
import type { Exchange } from './exchange.js';
import type { Finding, RecordedFinding, RequirementId, RequirementSummary } from './findings.js';
import type { RunInputs } from './run-inputs.js';
import type { CheckCounts, LeftOutCheck, RunVerdict } from './verdict.js';
import type { AppliedWaiver, WaiverOutcome } from './waivers.js';

/** The expected computation beside the provider's numbers, for one quote (quote-math). */
export interface QuoteMathRow {
  label: string; // e.g. "line 1 optionsTotal", "subtotal", "total"
  formula: string; // e.g. "150 × 1 × 2"
  expected: number;
  actual: number | null;
  ok: boolean;
}

/** One event seen by the embedded receiver during the run (webhook timeline). */
export interface WebhookTimelineEntry {
  receivedAt: string;
  eventId?: string;
  eventType?: string;
  actionId?: string;
  newStatus?: string;
  /** The signature verified over the raw bytes. */
  verified: boolean;
  /** The body is a NormalizedWebhookEvent; absent when not checked (an unverified signature). A separate fact. */
  schemaValid?: boolean;
  header?: string;
  diagnosis?: string;
  duplicate?: boolean;
  /** Verified with the secret a rotation replaced, inside serve's overlap window. */
  verifiedWith?: 'previous';
}

/**
 * Unverifiable requests that reached the provider's webhook route during the run (unsigned, badly signed by
 * someone without its secret, oversized, wrong route): anyone who reaches the receiver can send them, so they are
 * never the provider's failure. Counted here, apart from its own events.
 */
export interface IgnoredWebhooks {
  count: number;
  /** How many were answered with each HTTP status, e.g. { "401": 5, "413": 7 }. */
  byStatus: Record<string, number>;
}

/**
 * A rule a check could not test within the run's limits, for a reason that is no contract violation (status
 * `untested`, verdict INCOMPLETE). No finding against the provider: what would test it instead.
 */
export interface UntestedRule {
  /** The requirement that was not tested (spec/requirements.yaml). */
  requirement: RequirementId;
  /** Why it could not be tested, e.g. "quote q-1 is valid for 900 s, longer than --max-expiry-wait 130". */
  reason: string;
  /** The setting or test-environment change that would test it, e.g. "rerun with --max-expiry-wait 910". */
  remedy: string;
}

/** What a check returns. Checks never print; they return findings. */
export interface CheckOutcome {
  status: CheckStatus;
  /** One line a person can act on: what is wrong (or what passed). */
  message: string;
  /** Further problems beyond the first, each one line. */
  details?: string[];
  warnings?: string[];
  expected?: unknown;
  actual?: unknown;
  evidence: Exchange[];
  /** A shell command that sends the failing request again (credential referenced by env var). */
  reproduce?: string;
  quoteMath?: QuoteMathRow[];
  webhookTimeline?: WebhookTimelineEntry[];
  /** Every problem and warning with its requirement; `message`, `details` and `warnings` are their text. */
  findings?: RecordedFinding[];
  /** Rules not tested within the run's limits (set with status `untested`, and kept beside a failure). */
  untested?: UntestedRule[];
}

export interface CheckResult extends Omit<CheckOutcome, 'findings'> {
  id: CheckId;
  title: string;
  rule: string;
  /** The requirements this check verifies (spec/requirements.yaml), primary first. */
  requirements: RequirementId[];
  findings: Finding[];
  durationMs: number;
  /** Set when an expectedFailures entry covers this failed or errored check: it keeps its status but no longer fails the gate. */
  waiver?: AppliedWaiver;
  /**
   * On a skipped check: the check whose failure (or root cause) it was skipped for. That check is a root cause, and
   * no waiver covers it: a waiver never turns what it stopped into a pass.
   */
  skippedBecauseOf?: CheckId;
  /**
   * On a check the selection (`--only`/`--skip`) left out whose subject another check found broken while it ran
   * (the catalog a quote check could not use): its result is that observation, a failure citing its rule, and not a
   * full run of the check. The checks it names are the ones that saw it.
   */
  observedWhile?: CheckId[];
}

export interface RunReport {
  reportVersion: 1;
  tool: { name: 'provcert'; version: string };
  contract: { version: string; spec: string };
  /** profile and fulfillment are absent when GET /provider-info could not tell them (the run's root cause). */
  provider: {
    baseUrl: string;
    slug?: string;
    name?: string;
    authMethod: AuthMethod;
    profile?: Profile;
    capabilities: string[];
    fulfillment?: string;
  };
  /** What the run reached (model/verdict.ts): derived once by deriveRunVerdict, read by every format. */
  verdict: RunVerdict;
  /** Set when a signal or an abort stopped the run ("SIGINT", "SIGTERM", "aborted"): the verdict is INTERRUPTED. */
  interruptedBy?: string;
  /**
   * Set with `interruptedBy`: the checks the interruption kept from running (not started, cut off, or skipped for a
   * check that did not run), in the run's order. Absent in reports written before it was recorded.
   */
  notRun?: CheckId[];
  /** Checks of the provider's profile the run's selection (only/skip) left out; the verdict is then PARTIAL at best. */
  leftOut?: LeftOutCheck[];
  /** Checks `--only` did not name that ran because a named check takes its test data from them (CheckDefinition.needs). */
  pulledIn?: PulledInCheck[];
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Checks by status (countChecks): a waived failure counts as waived, not failed. `waived` and `untested` are absent in older reports. */
  summary: Record<Exclude<CheckStatus, 'untested'>, number> & Partial<Pick<CheckCounts, 'waived' | 'untested'>>;
  checks: CheckResult[];
  /** The provider's own webhook requests (its timeline), and the noise on its route counted apart. */
  webhooks: { url: string; events: WebhookTimelineEntry[]; ignored?: IgnoredWebhooks };
  /** Section and quoted sentence of every requirement the checks cite, by id. */
  requirements: Record<RequirementId, RequirementSummary>;
  /** Whether warnings counted as failures (strict mode). */
  strict?: boolean;
  /**
   * Warnings strict mode did not count because the run's own local setting causes them (http://, a loopback or
   * private host): they stay warnings.
   */
  strictExempted?: StrictExemption[];
  /** What became of each expectedFailures entry that concerns this provider (absent: none was given). */
  waivers?: WaiverOutcome[];
  /**
   * Everything needed to rerun the same run (provcert replay), each setting under its one name. No secrets: env var
   * names only. A run writes every key (`RunInputs`); a stored report is untrusted and may be older (other names,
   * keys missing): read its settings with `readRecordedInputs`.
   */
  inputs: Partial<RunInputs> & Record<string, unknown>;
}

/** A check `--only` ran without naming it, and the named checks that need it. */
export interface PulledInCheck {
  id: CheckId;
  neededBy: CheckId[];
}

/** A warning strict mode left a warning, and why. */
export interface StrictExemption {
  check: CheckId;
  requirement: RequirementId;
  message: string;
  reason: string;
}

/** What is known the moment a run starts, before the provider answered anything. */
export interface RunBeginInfo {
  baseUrl: string;
  timeoutMs: number;
}

/** What is known once GET /provider-info decided the profile and the checks. */
export interface RunStartInfo {
  baseUrl: string;
  webhookUrl: string;
  profile: string;
  /** The provider's slug from GET /provider-info (absent when it could not be read). */
  slug?: string;
  /**
   * The command that tails the webhooks the run's own receiver gets (`provcert events … --follow --secret-env NAME`);
   * absent when the run was given a receiver or generated its webhook secret.
   */
  followCommand?: string;
  checks: number;
  /** Sections of the requirements the checks cite, to name them beside failures. */
  requirements?: RunReport['requirements'];
}

/** What a check is waiting for, e.g. "2 of 4 events received" for at most 24 s more. */
export interface CheckProgress {
  text: string;
  /** How long the wait may still last; the console counts it down. */
  remainingMs?: number;
  /** The wait ends early when what is awaited arrives ("up to 24 s left"). */
  endsEarly?: boolean;
}
