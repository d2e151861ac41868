import type { Contract } from '../../contract/contract.js';
import type { ProviderClient } from '../../http/types.js';
import type { CheckId } from '../../model/check-ids.js';
import type { Clock } from '../../model/clock.js';
import type { AuthMethod, Profile } from '../../model/contract-constants.js';
import type { RequirementId } from '../../model/findings.js';
import type { CheckOutcome, CheckProgress } from '../../model/report.js';
import type { RunConfig } from '../../model/run-config.js';
import type { SpellSetting } from '../../model/setting-speller.js';
import type { WebhookInbox } from '../../model/webhooks.js';
import type { Resources } from './resources.js';

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
  /** How advice names a setting for this run's front end (a flag, an option, a config key). */
  readonly spell: SpellSetting;
  /** The slug the provider is registered under (fleet file, `serve`): provider-info must answer the same. */
  readonly expectedSlug?: string;
  /** Says what a long wait is waiting for, at each change (the console shows it live; never part of the report). */
  readonly progress?: (update: CheckProgress) => void;
}

export type { Clock };

/** What the runner knows before checks run, to decide applicability. */
export interface ApplicabilityContext {
  readonly config: RunConfig;
  readonly contract: Contract;
  /** Capabilities declared by GET /provider-info (or --capabilities when provider-info failed). */
  readonly declared: ReadonlySet<string>;
  readonly profile: Profile;
  readonly fulfillment: string;
  readonly authMethod: AuthMethod;
  /** How a skip reason names a setting for this run's front end. */
  readonly spell: SpellSetting;
}

/**
 * Which kind of check it is: `read` checks only read (GET requests, and requests the provider must refuse);
 * `transactional` checks send POST requests that may create test orders, so they run only when the provider
 * declares a safe test environment (manifest.certification.safeTestEnvironment).
 */
export type CheckGroup = 'read' | 'transactional';

export interface CheckDefinition {
  id: CheckId;
  group: CheckGroup;
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
  /**
   * Checks whose subject gives this one its test data (the catalog a quote is built from, the quote an order is
   * placed with): `--only` runs them too, and a replay reruns this check when one of them is fixed. Unlike
   * dependsOn, their failure skips this check only when the data it needs could not be obtained.
   */
  needs?: CheckId[];
  /** Checks that must have finished first (whatever their status). */
  after?: CheckId[];
  /**
   * Set when the check waits out a quote's validity: such checks start before the others, so their quotes are taken
   * together and every mandated expiry wait elapses at once (a run lasts about one validity, not one per check).
   */
  waitsForQuoteExpiry?: true;
  run(ctx: CheckContext): Promise<CheckOutcome>;
}
