import { PrerequisiteError } from './framework/resources.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { keepEvidence } from './support/evidence.js';
import { expectJson, expectSchema, type JsonResponse } from './support/expect.js';
import { LOCATION_FULFILLMENT, resolveFulfillment } from './support/profile.js';

interface LocationView {
  id: string;
  name: string;
  isActive?: boolean;
}

const label = (l: LocationView): string => `${l.id} (${l.name})`;

async function fetchLocations(
  ctx: CheckContext,
  f: Findings,
  activeOnly: boolean | undefined,
): Promise<{ outcome: JsonResponse; locations: LocationView[] } | undefined> {
  const query = activeOnly === undefined ? undefined : { activeOnly };
  const what = `GET /locations${query ? `?activeOnly=${String(activeOnly)}` : ''}`;
  const outcome = await ctx.client.send({ method: 'GET', path: '/locations', ...(query ? { query } : {}) });
  if (!expectJson(f, outcome, what)) return undefined;
  if (!expectSchema(f, ctx.contract, outcome, 'GET /locations', what, 'LOCATION-REQUIRED-FIELDS')) return undefined;
  return { outcome, locations: outcome.json as LocationView[] };
}

/** "REMOTE has no automatic location requirement": only the location fulfillment modes need an active one. */
export const needsLocation = (fulfillment: string): boolean => LOCATION_FULFILLMENT.includes(fulfillment);

/** --fulfillment, else provider-info, else the default by provider type (as applicability resolves it). */
async function fulfillmentOf(ctx: CheckContext): Promise<string> {
  try {
    return resolveFulfillment(ctx.config.fulfillment, await ctx.resources.providerInfo());
  } catch (error) {
    if (error instanceof PrerequisiteError) return resolveFulfillment(ctx.config.fulfillment, undefined);
    throw error;
  }
}

export const check: CheckDefinition = {
  id: 'locations',
  group: 'read',
  title: 'Locations: at least one active, activeOnly honoured',
  rule: 'Contract, What the service does §9: "DELIVERY, PICKUP, ONSITE and HYBRID require at least one active location returned by GET /locations … the active locations returned by the route are [what is checked]"; Endpoints: GET /locations query activeOnly, default true',
  requirements: ['LOCATIONS-ACTIVE-REQUIRED', 'LOCATIONS-ACTIVE-ONLY', 'LOCATION-REQUIRED-FIELDS'],
  appliesTo: {
    description: 'when LOCATIONS is declared or the fulfillment mode is DELIVERY, PICKUP, ONSITE or HYBRID',
  },
  skipReason(ctx) {
    if (ctx.declared.has('LOCATIONS') || LOCATION_FULFILLMENT.includes(ctx.fulfillment)) return undefined;
    return `LOCATIONS is not declared and fulfillment ${ctx.fulfillment} needs no location`;
  },
  async run(ctx) {
    const f = new Findings();
    const byDefault = await fetchLocations(ctx, f, undefined);
    const activeOnly = await fetchLocations(ctx, f, true);
    const all = await fetchLocations(ctx, f, false);

    // The root cause first: with no active location at all, activeOnly is secondary.
    const active = (byDefault ?? activeOnly)?.locations.filter((l) => l.isActive !== false);
    if (active && active.length === 0) {
      const fulfillment = await fulfillmentOf(ctx);
      const source = byDefault ?? activeOnly;
      if (!needsLocation(fulfillment))
        f.warn(
          `GET /locations returned no active location; fulfillment ${fulfillment} has no automatic location requirement`,
          'LOCATIONS-ACTIVE-REQUIRED',
        );
      else {
        if (source) keepEvidence(f, source.outcome);
        f.problem(
          `GET /locations returned no active location; fulfillment ${fulfillment} (like DELIVERY, PICKUP, ONSITE and HYBRID) needs at least one active location from the route`,
        );
      }
    }
    for (const [answer, what] of [
      [byDefault, 'GET /locations (activeOnly defaults to true)'],
      [activeOnly, 'GET /locations?activeOnly=true'],
    ] as const) {
      if (!answer) continue;
      const inactive = answer.locations.filter((l) => l.isActive === false);
      if (inactive.length > 0) {
        keepEvidence(f, answer.outcome);
        f.problem(
          `${what} returned inactive location(s) ${inactive.map(label).join(', ')}; activeOnly must be honoured`,
          'LOCATIONS-ACTIVE-ONLY',
        );
      }
    }
    if (all && active) {
      const listed = new Set(all.locations.map((l) => l.id));
      const absent = active.filter((l) => !listed.has(l.id));
      if (absent.length > 0) {
        keepEvidence(f, all.outcome);
        f.problem(
          `GET /locations?activeOnly=false left out active location(s) ${absent.map(label).join(', ')}; activeOnly=false must return every location`,
          'LOCATIONS-ACTIVE-ONLY',
        );
      }
    }
    const inactiveCount = all ? all.locations.filter((l) => l.isActive === false).length : 0;
    return f.outcome(
      `${active?.length ?? 0} active location(s)${inactiveCount > 0 ? `; activeOnly=false adds ${inactiveCount} inactive` : ''}`,
    );
  },
};
