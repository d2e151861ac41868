import type { Profile } from '../../model/contract-constants.js';
import type { ProviderInfoView } from '../framework/views.js';

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
