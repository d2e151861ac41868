import type { Contract } from '../contract/contract.js';
import type { Profile } from '../model/contract-constants.js';
import type { CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { keepEvidence } from './support/evidence.js';
import { describeAnswer } from './support/expect.js';
import { inferProfile, LOCATION_FULFILLMENT, resolveFulfillment } from './support/profile.js';

/** Capabilities a profile requires, from the spec's x-required-in (provider routes and the webhook). */
export function requiredCapabilities(contract: Contract, profile: Profile, fulfillment: string): string[] {
  const required = new Set<string>();
  for (const op of contract.operations()) {
    if (op.capability && op.requiredIn.includes(profile)) required.add(op.capability);
  }
  if (LOCATION_FULFILLMENT.includes(fulfillment)) required.add('LOCATIONS');
  return [...required];
}

/** A declared capability's GET route that can be probed without creating anything. */
export interface RouteProbe {
  capability: string;
  path: string;
  query?: Record<string, string>;
}

/** Query parameters a probe must carry because the spec requires them. */
const PROBE_QUERIES: Record<string, Record<string, string>> = { '/search': { q: 'test' } };

/** GET routes without path parameters whose capability is declared (others need ids the run has not made here). */
export function routeProbes(contract: Contract, declared: readonly string[]): RouteProbe[] {
  const probes: RouteProbe[] = [];
  for (const op of contract.operations()) {
    if (
      op.method.toUpperCase() !== 'GET' ||
      !op.capability ||
      !declared.includes(op.capability) ||
      op.path.includes('{') ||
      op.path.startsWith('/api/')
    )
      continue;
    const query = PROBE_QUERIES[op.path];
    probes.push({ capability: op.capability, path: op.path, ...(query ? { query } : {}) });
  }
  return probes;
}

export const check: CheckDefinition = {
  id: 'capabilities',
  group: 'read',
  title: 'Declared capabilities match the profile, the portal and the routes',
  rule: 'Contract, What the service does §7–§9: the capability profiles table (required capabilities per profile; LOCATIONS when fulfillment is DELIVERY, PICKUP, ONSITE or HYBRID); §8: "Only real capabilities are declared … Capabilities in the portal and in GET /provider-info must match"',
  requirements: [
    'CAPABILITIES-ONLY-REAL',
    'PROFILE-BASE-CAPABILITIES',
    'PROFILE-TRANSACTIONAL-CAPABILITIES',
    'CAPABILITIES-MATCH-PORTAL',
    'LOCATIONS-ACTIVE-REQUIRED',
  ],
  appliesTo: { description: 'every provider' },
  async run(ctx) {
    const f = new Findings();
    const info = await ctx.resources.providerInfo();
    const declared = info.capabilities;
    const profile = inferProfile(ctx.config.profile, new Set(declared));
    const fulfillment = resolveFulfillment(ctx.config.fulfillment, info);

    const missing = requiredCapabilities(ctx.contract, profile, fulfillment).filter((c) => !declared.includes(c));
    // The profile table's rows for both profiles, its transactional rows and LOCATIONS by fulfillment are separate rules.
    const base = new Set(requiredCapabilities(ctx.contract, 'DISCOVERY_READONLY', 'REMOTE'));
    const groups = [
      { missing: missing.filter((c) => base.has(c)), requirement: 'PROFILE-BASE-CAPABILITIES', why: '' },
      {
        missing: missing.filter((c) => !base.has(c) && c !== 'LOCATIONS'),
        requirement: 'PROFILE-TRANSACTIONAL-CAPABILITIES',
        why: '',
      },
      {
        missing: missing.filter((c) => c === 'LOCATIONS'),
        requirement: 'LOCATIONS-ACTIVE-REQUIRED',
        why: ` (LOCATIONS because fulfillment is ${fulfillment})`,
      },
    ];
    for (const g of groups) {
      if (g.missing.length > 0)
        f.problem(
          `the ${profile} profile requires ${g.missing.join(', ')}, which GET /provider-info does not declare${g.why}`,
          g.requirement,
        );
    }

    if (ctx.config.capabilities) {
      const portal = ctx.config.capabilities;
      const onlyPortal = portal.filter((c) => !declared.includes(c));
      const onlyProvider = declared.filter((c) => !portal.includes(c));
      if (onlyPortal.length > 0 || onlyProvider.length > 0) {
        const parts = [
          onlyPortal.length > 0
            ? `declared in the portal (${ctx.spell('capabilities')}) but not by GET /provider-info: ${onlyPortal.join(', ')}`
            : '',
          onlyProvider.length > 0
            ? `declared by GET /provider-info but not in the portal: ${onlyProvider.join(', ')}`
            : '',
        ].filter(Boolean);
        f.problem(
          `the portal and GET /provider-info declare different capabilities: ${parts.join('; ')}`,
          'CAPABILITIES-MATCH-PORTAL',
        );
        f.expected = [...portal].sort();
        f.actual = [...declared].sort();
      }
    }

    // The declaration itself is the evidence of a profile or portal mismatch.
    if (f.failed) keepEvidence(f, await ctx.client.send({ method: 'GET', path: '/provider-info' }));

    const probes = routeProbes(ctx.contract, declared);
    const answers = await Promise.all(
      probes.map(async (p) => ({
        probe: p,
        outcome: await ctx.client.send({ method: 'GET', path: p.path, ...(p.query ? { query: p.query } : {}) }),
      })),
    );
    for (const { probe, outcome } of answers) {
      const route = `GET ${probe.path}`;
      if (outcome.kind === 'failure') {
        keepEvidence(f, outcome);
        f.problem(`declared capability ${probe.capability}: ${route} did not answer: ${outcome.message}`);
      } else if (outcome.status === 404) {
        keepEvidence(f, outcome);
        f.problem(
          `declared capability ${probe.capability}: ${route} answered ${describeAnswer(outcome)}; a declared capability's route must exist (declare only real capabilities)`,
        );
      }
    }
    const unprobed = declared.filter((c) => !probes.some((p) => p.capability === c));
    const note = unprobed.length > 0 ? `; routes of ${unprobed.join(', ')} are exercised by their own checks` : '';
    return f.outcome(
      `${profile} profile (fulfillment ${fulfillment}): ${declared.join(', ')}; every probed route answers${note}`,
    );
  },
};
