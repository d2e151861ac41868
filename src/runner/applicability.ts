import type { ApplicabilityContext, CheckDefinition } from '../checks/types.js';
import type { Profile } from '../contract.js';
import type { ProviderInfoView } from '../checks/views.js';

/** Fulfillment modes that need at least one active location (contract §9). */
export const LOCATION_FULFILLMENT = ['DELIVERY', 'PICKUP', 'ONSITE', 'HYBRID'];
const TRANSACTIONAL_CAPABILITIES = ['QUOTE', 'ACTION_CREATE', 'ACTION_STATUS', 'WEBHOOK'];

/** --profile, else TRANSACTIONAL when any transactional capability is declared. */
export function inferProfile(explicit: Profile | undefined, declared: ReadonlySet<string>): Profile {
  if (explicit) return explicit;
  return TRANSACTIONAL_CAPABILITIES.some((c) => declared.has(c)) ? 'TRANSACTIONAL' : 'DISCOVERY_READONLY';
}

/** --fulfillment, else what provider-info states, else the default by provider type (contract §9). */
export function resolveFulfillment(explicit: string | undefined, info: ProviderInfoView | undefined): string {
  if (explicit) return explicit.toUpperCase();
  const candidates = [
    (info as { fulfillment?: unknown } | undefined)?.fulfillment,
    (info as { fulfillmentMode?: unknown } | undefined)?.fulfillmentMode,
    info?.manifest?.fulfillment,
    info?.metadata?.['fulfillment'],
    info?.metadata?.['fulfillmentMode'],
  ];
  const stated = candidates.find((c): c is string => typeof c === 'string');
  if (stated) return stated.toUpperCase();
  const type = info?.type?.toUpperCase();
  if (type === 'DELIVERY') return 'DELIVERY';
  if (type === 'RETAIL' || type === 'BOOKINGS') return 'ONSITE';
  return 'REMOTE';
}

/** Why a check does not apply to this provider, or undefined when it does. Derived from the spec's x- extensions. */
export function skipReasonFor(def: CheckDefinition, ctx: ApplicabilityContext): string | undefined {
  const { profiles, authMethods, operations } = def.appliesTo;
  if (profiles && !profiles.includes(ctx.profile)) return `not part of the ${ctx.profile} profile`;
  if (authMethods && !authMethods.includes(ctx.authMethod)) return `applies only to auth method ${authMethods.join(', ')} (this run uses ${ctx.authMethod})`;
  if (operations && operations.length > 0) {
    const infos = operations.map((key) => ctx.contract.operation(key));
    const applies = infos.some((op) => op && ((op.capability !== undefined && ctx.declared.has(op.capability)) || op.requiredIn.includes(ctx.profile)));
    if (!applies) {
      const caps = [...new Set(infos.map((op) => op?.capability).filter((c): c is string => c !== undefined))];
      return `capability ${caps.join(', ') || operations.join(', ')} is not declared and not required in the ${ctx.profile} profile`;
    }
  }
  return def.skipReason?.(ctx);
}
