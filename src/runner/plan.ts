import { CHECKS } from '../checks/framework/registry.js';
import type { Resources } from '../checks/framework/resources.js';
import type { ApplicabilityContext, CheckDefinition } from '../checks/framework/types.js';
import type { ProviderInfoView } from '../checks/framework/views.js';
import { inferProfile, resolveFulfillment } from '../checks/support/profile.js';
import type { Contract } from '../contract/contract.js';
import type { CheckId } from '../model/check-ids.js';
import type { Profile } from '../model/contract-constants.js';
import type { PulledInCheck } from '../model/report.js';
import type { RunConfig } from '../model/run-config.js';
import type { LeftOutCheck } from '../model/verdict.js';
import { applicabilitySkips, safetyCause, skipReasonFor } from './applicability.js';
import type { OpenRun } from './open-run.js';
import { readProviderInfo, stoppedRun } from './root-cause.js';
import { selectChecks } from './selection.js';

/** What GET /provider-info and the selection decided before any check runs. */
export interface RunPlan {
  info?: ProviderInfoView;
  declared: Set<string>;
  /** Absent when GET /provider-info could not tell it (the root cause) and it was not given. */
  profile?: Profile;
  fulfillment?: string;
  defs: CheckDefinition[];
  /** Checks decided before they run: skipped, with the reason. */
  decided: Map<CheckId, string>;
  /** The check each decided skip is owed to (the root cause), when one is. */
  causes: Map<CheckId, CheckId>;
  /** The check that carries the run's root cause (GET /provider-info unusable), when there is one. */
  rootCause?: CheckId;
  /** Checks of the profile the selection left out. */
  leftOut: LeftOutCheck[];
  /** Checks `--only` did not name that run because a named one needs them. */
  pulledIn: PulledInCheck[];
  slug: string;
  /** The contract description's version (spec/openapi.yaml's). */
  specVersion: string;
}

export interface PlanDeps {
  resources: Resources;
  contract: Contract;
  credential: string;
}

/**
 * Provider-info decides applicability (capabilities, profile, fulfillment) and safety; it is fetched first. When it
 * cannot be read (refused, unreachable, not JSON), that is the run's one root cause: one check reports it, every
 * other check is skipped naming it, and nothing is guessed (the report then has no profile).
 */
export async function planChecks(run: OpenRun, config: RunConfig, deps: PlanDeps): Promise<RunPlan> {
  const { selected, pulledIn } = selectChecks(config);
  const reading = await readProviderInfo({
    resources: deps.resources,
    client: run.client,
    contract: deps.contract,
    config,
    credential: deps.credential,
    selected: selected.map((d) => d.id),
    spell: run.spell,
  });
  const { info, cause } = reading;
  const safe = info?.manifest?.certification?.safeTestEnvironment === true;
  run.declareSafe(safe);
  const declared = new Set(info?.capabilities ?? reading.declared ?? config.capabilities ?? []);
  const slug = info?.slug ?? 'provider';
  if (cause) {
    // With a root cause only what the user stated is known: the profile and fulfillment given.
    const { defs, skips } = stoppedRun(selected, CHECKS, cause);
    const causes = new Map([...skips.keys()].map((id) => [id, cause.carrier as CheckId]));
    const fulfillment = config.fulfillment?.toUpperCase();
    return {
      ...(info ? { info } : {}),
      declared,
      ...(config.profile ? { profile: config.profile } : {}),
      ...(fulfillment ? { fulfillment } : {}),
      defs,
      decided: skips,
      causes,
      rootCause: cause.carrier,
      leftOut: leftOutOf(defs, undefined, config),
      pulledIn,
      slug,
      specVersion: deps.contract.version,
    };
  }
  const profile = inferProfile(config.profile, declared);
  const fulfillment = resolveFulfillment(config.fulfillment, info);
  const applicability: ApplicabilityContext = {
    config,
    contract: deps.contract,
    declared,
    profile,
    fulfillment,
    authMethod: config.auth,
    spell: run.spell,
  };
  // A check the selection left out that would not apply anyway is reported as the skip a full run reports, so the
  // report accounts for every check of the contract: ran, skipped with its reason, or left out (consistency.ts).
  const inapplicable = new Set(
    CHECKS.filter((d) => !selected.includes(d) && skipReasonFor(d, applicability) !== undefined).map((d) => d.id),
  );
  const chosen = CHECKS.filter((d) => selected.includes(d) || inapplicable.has(d.id));
  const decided = applicabilitySkips(chosen, applicability, safe ? 'safe' : info ? 'unsafe' : 'unconfirmed');
  const causes = new Map<CheckId, CheckId>();
  for (const [id, reason] of decided) if (safetyCause(reason)) causes.set(id, 'metadata');
  // The check a planned skip is owed to runs even when the selection left it out: it says why (and fails the run).
  const carriers = new Set(causes.values());
  const defs = CHECKS.filter((d) => chosen.includes(d) || carriers.has(d.id));
  return {
    ...(info ? { info } : {}),
    declared,
    profile,
    ...(fulfillment ? { fulfillment } : {}),
    defs,
    decided,
    causes,
    leftOut: leftOutOf(
      CHECKS.filter((d) => selected.includes(d) || carriers.has(d.id)),
      applicability,
      config,
    ),
    pulledIn,
    slug,
    specVersion: deps.contract.version,
  };
}

/**
 * The checks of the provider's profile that the selection (only/skip) left out. Without a readable profile (a root
 * cause), every check not run counts: nothing tells which of them would apply.
 */
function leftOutOf(
  ran: readonly CheckDefinition[],
  applicability: ApplicabilityContext | undefined,
  config: RunConfig,
): LeftOutCheck[] {
  if (!config.only && !config.skip) return [];
  const running = new Set(ran.map((d) => d.id));
  return CHECKS.filter((d) => !running.has(d.id))
    .filter((d) => !applicability || skipReasonFor(d, applicability) === undefined)
    .map((d) => ({
      id: d.id,
      reason: config.skip?.includes(d.id) ? 'left out by the skip list' : 'not in the only list',
    }));
}
