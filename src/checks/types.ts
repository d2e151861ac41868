import type { AuthMethod, Profile } from '../contract.js';
import type { Exchange, ProviderClient } from '../http/types.js';
import type { Contract } from '../spec/contract.js';
import type { RunConfig } from '../runner/config.js';
import type { Resources } from '../runner/resources.js';
import type { WebhookInbox } from '../server/types.js';

/** Stable check ids (DECISIONS.md, Results). */
export const CHECK_IDS = [
  'base-url', 'metadata', 'capabilities', 'health', 'locations', 'catalog', 'offering', 'search',
  'wrong-credential', 'signature', 'quote-math', 'quote-validation', 'quote-expiry', 'quote-binding', 'action-validation',
  'payment-pending', 'action-status', 'idempotency', 'webhook', 'cancel', 'payment-options', 'errors',
] as const;
export type CheckId = (typeof CHECK_IDS)[number];

export type CheckStatus = 'pass' | 'fail' | 'skip' | 'error';

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
  verified: boolean;
  header?: string;
  diagnosis?: string;
  duplicate?: boolean;
}

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
}

/** What a report says of a requirement it cites (from spec/requirements.yaml). */
export interface RequirementSummary {
  section: string;
  quote: string;
}

export interface CheckResult extends Omit<CheckOutcome, 'findings'> {
  id: CheckId;
  title: string;
  rule: string;
  /** The requirements this check verifies (spec/requirements.yaml), primary first. */
  requirements: RequirementId[];
  findings: Finding[];
  durationMs: number;
}

/** Everything a check may use. I/O is injected so checks stay testable. */
export interface CheckContext {
  readonly client: ProviderClient;
  readonly contract: Contract;
  readonly config: RunConfig;
  readonly resources: Resources;
  readonly webhooks: WebhookInbox;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  /** The run's credential and webhook secret, so a check can tell when a provider repeats them (never printed). */
  readonly secrets: readonly string[];
  /** Says what a long wait is waiting for, at each change (the console shows it live; never part of the report). */
  readonly progress?: (update: CheckProgress) => void;
}

/** What a check is waiting for, e.g. "2 of 4 events received" for at most 24 s more. */
export interface CheckProgress {
  text: string;
  /** How long the wait may still last; the console counts it down. */
  remainingMs?: number;
  /** The wait ends early when what is awaited arrives ("up to 24 s left"). */
  endsEarly?: boolean;
}

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** What the runner knows before checks run, to decide applicability. */
export interface ApplicabilityContext {
  readonly config: RunConfig;
  readonly contract: Contract;
  /** Capabilities declared by GET /provider-info (or --capabilities when provider-info failed). */
  readonly declared: ReadonlySet<string>;
  readonly profile: Profile;
  readonly fulfillment: string;
  readonly authMethod: AuthMethod;
}

export interface CheckDefinition {
  id: CheckId;
  title: string;
  /** The contract rule it enforces, quoted or cited (section + rule). */
  rule: string;
  /** Requirement ids (spec/requirements.yaml) it verifies; the first is where an unattributed finding stands. */
  requirements: readonly [RequirementId, ...RequirementId[]];
  /**
   * Where it applies. `operations` ("GET /search") are looked up in the spec: the check applies when the
   * operation's x-capability is declared or x-required-in lists the profile. Omitted: always.
   */
  appliesTo: { operations?: string[]; profiles?: Profile[]; authMethods?: AuthMethod[]; description: string };
  /** Extra applicability rule; returns the skip reason, or undefined when it applies. */
  skipReason?(ctx: ApplicabilityContext): string | undefined;
  /** Checks that must pass first; if one does not, this one is skipped naming it. */
  dependsOn?: CheckId[];
  /** Checks that must have finished first (whatever their status). */
  after?: CheckId[];
  /** Sends POST requests that may create test orders (guarded by safeTestEnvironment). */
  createsOrders?: boolean;
  run(ctx: CheckContext): Promise<CheckOutcome>;
}

export interface RunReport {
  reportVersion: 1;
  tool: { name: 'provcert'; version: string };
  contract: { version: string; spec: string };
  /** profile and fulfillment are absent when GET /provider-info could not tell them (the run's root cause). */
  provider: { baseUrl: string; slug?: string; name?: string; authMethod: AuthMethod; profile?: Profile; capabilities: string[]; fulfillment?: string };
  verdict: 'PASS' | 'FAIL';
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  summary: Record<CheckStatus, number>;
  checks: CheckResult[];
  webhooks: { url: string; events: WebhookTimelineEntry[] };
  /** Section and quoted sentence of every requirement the checks cite, by id. */
  requirements: Record<RequirementId, RequirementSummary>;
  /** Whether warnings counted as failures (--strict). */
  strict?: boolean;
  /** Everything needed to rerun the same run (provcert replay). No secrets: env var names only. */
  inputs: Record<string, unknown>;
}
