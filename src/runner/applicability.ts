import type { ApplicabilityContext, CheckDefinition } from '../checks/framework/types.js';
import { describeBody } from '../http/body.js';
import type { HttpOutcome, HttpResponse } from '../http/types.js';
import type { CheckId } from '../model/check-ids.js';

/** Why a check does not apply to this provider, or undefined when it does. Derived from the spec's x- extensions. */
export function skipReasonFor(def: CheckDefinition, ctx: ApplicabilityContext): string | undefined {
  const { profiles, authMethods, operations } = def.appliesTo;
  if (profiles && !profiles.includes(ctx.profile)) return `not part of the ${ctx.profile} profile`;
  if (authMethods && !authMethods.includes(ctx.authMethod))
    return `applies only to auth method ${authMethods.join(', ')} (this run uses ${ctx.authMethod})`;
  if (operations && operations.length > 0) {
    const infos = operations.map((key) => ctx.contract.operation(key));
    const applies = infos.some(
      (op) =>
        op && ((op.capability !== undefined && ctx.declared.has(op.capability)) || op.requiredIn.includes(ctx.profile)),
    );
    if (!applies) {
      const caps = [...new Set(infos.map((op) => op?.capability).filter((c): c is string => c !== undefined))];
      return `capability ${caps.join(', ') || operations.join(', ')} is not declared and not required in the ${ctx.profile} profile`;
    }
  }
  return def.skipReason?.(ctx);
}

/** Why GET /provider-info cannot tell what applies: the run's one root cause. */
export type ProviderInfoCauseKind = 'refused' | 'unreachable' | 'unusable' | 'undeclared';

export interface ProviderInfoCause {
  kind: ProviderInfoCauseKind;
  /** One phrase, quoted by every skipped check: "GET /provider-info was refused for the credential (HTTP 401)". */
  summary: string;
}

/** Transport failures that mean nothing answered at all (others, e.g. a redirect or an oversized body, are answers). */
const NO_ANSWER = new Set(['timeout', 'dns', 'refused', 'reset', 'tls', 'network']);

const statusPhrase = (outcome: HttpResponse): string => {
  const body = outcome.json as { code?: unknown } | undefined;
  return `HTTP ${outcome.status}${outcome.bodyKind === 'json' && typeof body?.code === 'string' ? ` ${body.code}` : ''}`;
};

/**
 * What makes an answer of GET /provider-info unusable for deciding the run, or undefined for a JSON 200.
 * A schema-invalid JSON 200 is not judged here: its capabilities may still be readable (see declaredIn).
 */
export function providerInfoCause(outcome: HttpOutcome): ProviderInfoCause | undefined {
  if (outcome.kind === 'failure') {
    if (NO_ANSWER.has(outcome.failure))
      return {
        kind: 'unreachable',
        summary: `the provider could not be reached (GET /provider-info: ${outcome.message})`,
      };
    return { kind: 'unusable', summary: `GET /provider-info gave no usable answer (${outcome.message})` };
  }
  if (outcome.status === 401 || outcome.status === 403) {
    return { kind: 'refused', summary: `GET /provider-info was refused for the credential (${statusPhrase(outcome)})` };
  }
  if (outcome.status !== 200)
    return { kind: 'unusable', summary: `GET /provider-info answered ${statusPhrase(outcome)}, not 200` };
  if (outcome.bodyKind !== 'json') {
    return {
      kind: 'unusable',
      summary: `GET /provider-info did not answer JSON (it answered ${describeBody(outcome.bodyKind, outcome.contentType)})`,
    };
  }
  return undefined;
}

/**
 * The same address problems base-url diagnoses from GET /health (nothing answers, a website, 404 on both
 * routes): then base-url reports the cause, and metadata would only repeat it.
 */
export function isAddressProblem(info: HttpOutcome, health: HttpOutcome): boolean {
  if (info.kind === 'failure') return health.kind === 'failure';
  if (health.kind === 'failure') return false;
  if (info.bodyKind === 'html') return health.bodyKind === 'html';
  return info.status === 404 && health.status === 404;
}

/** The capabilities a schema-invalid provider-info still declares (contract names only), or undefined when unreadable. */
export function declaredIn(json: unknown, known: readonly string[]): string[] | undefined {
  const capabilities = (json as { capabilities?: unknown } | null | undefined)?.capabilities;
  if (!Array.isArray(capabilities) || !capabilities.every((c): c is string => typeof c === 'string')) return undefined;
  return capabilities.filter((c) => known.length === 0 || known.includes(c));
}

/**
 * The check that reports the root cause: base-url for an address problem when it runs, else metadata (which
 * the runner adds when the selection left it out: without it nothing would say why the rest was skipped).
 */
export const causeCarrier = (addressProblem: boolean, selected: readonly CheckId[]): 'base-url' | 'metadata' =>
  addressProblem && selected.includes('base-url') ? 'base-url' : 'metadata';

/** The skip reason of every check the root cause stops. */
export const causeSkipReason = (cause: ProviderInfoCause, carrier: CheckId): string =>
  `skipped: ${cause.summary} — see ${carrier}`;

const NOT_SAFE =
  'not run: this check creates test orders, and manifest.certification.safeTestEnvironment is not true (see metadata); no POST request was sent';
const NOT_CONFIRMED =
  'not run: this check creates test orders, and GET /provider-info does not match the schema, so its safe test environment is not confirmed ' +
  '(see metadata); no POST request was sent';

/** Whether a skip reason is owed to GET /provider-info not declaring a safe test environment (metadata's finding). */
export const safetyCause = (reason: string): boolean => reason === NOT_SAFE || reason === NOT_CONFIRMED;

/** The skip reason of each check that does not apply, or creates orders where that is not declared safe. */
export function applicabilitySkips(
  defs: readonly CheckDefinition[],
  ctx: ApplicabilityContext,
  safety: 'safe' | 'unsafe' | 'unconfirmed',
): Map<CheckId, string> {
  const skips = new Map<CheckId, string>();
  for (const def of defs) {
    const reason =
      skipReasonFor(def, ctx) ??
      (def.group === 'transactional' && safety !== 'safe'
        ? safety === 'unsafe'
          ? NOT_SAFE
          : NOT_CONFIRMED
        : undefined);
    if (reason !== undefined) skips.set(def.id, reason);
  }
  return skips;
}
