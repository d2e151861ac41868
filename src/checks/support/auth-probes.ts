import { nearMiss } from '../../http/auth.js';
import type { AuthOverride, HttpOutcome } from '../../http/types.js';
import { SIGNATURE_HEADER } from '../../model/contract-constants.js';
import { PrerequisiteError } from '../framework/resources.js';
import type { CheckContext } from '../framework/types.js';
import type { Findings } from '../outcome.js';
import { cancelCreated } from './cancel-created.js';
import { keepEvidence } from './evidence.js';
import { describeAnswer, expectError } from './expect.js';
import { inPool } from './explore/pool.js';
import {
  type AuthProbe,
  type AuthRoute,
  authProbeTable,
  authRoutes,
  type CredentialSpec,
} from './probe-tables/auth.js';
import { inferProfile } from './profile.js';
import { quoteProbeBody } from './quote-probe.js';
import { actionIdentity, markReproduce, success } from './tx.js';

/** Probes in flight at once: the table has a hundred rows or more, a provider is not flooded. */
const PROBES_IN_FLIGHT = 8;
/** Bodies of the POST routes the run has no data for (a reason code and a description, as the contract advises). */
const BODIES_OF: Record<string, string> = {
  '/actions/{id}/cancel': JSON.stringify({ reason: 'CUSTOMER_CANCELLED: provcert authentication probe' }),
};

/** What the routes' path parameters and bodies are filled with. */
interface Fill {
  offeringId?: string;
  /** An action created for these probes (cancelled at the end), else a made-up id. */
  actionId?: string;
  quoteBody?: string;
  actionBody?: (label: string) => string;
}

/** One row ready to send. */
interface Sendable {
  probe: AuthProbe;
  what: string;
  path: string;
  body: string | undefined;
  auth: AuthOverride;
  /** The path names an id made up for the probe: a 404 then cannot tell a skipped check from a missing action. */
  madeUpId: boolean;
}

/** Which routes the provider serves: its declared capabilities, or (without provider-info) the base routes. */
async function served(
  ctx: CheckContext,
  routes: readonly AuthRoute[],
): Promise<{ routes: AuthRoute[]; posts: boolean }> {
  const posts = (await quoteProbeBody(ctx)) !== undefined;
  let declared: ReadonlySet<string> | undefined;
  try {
    declared = new Set((await ctx.resources.providerInfo()).capabilities);
  } catch (error) {
    if (!(error instanceof PrerequisiteError)) throw error;
  }
  const profile = declared ? inferProfile(ctx.config.profile, declared) : 'DISCOVERY_READONLY';
  const servedRoute = (r: AuthRoute): boolean =>
    r.capability === undefined || declared?.has(r.capability) === true || r.requiredIn.includes(profile);
  return { routes: routes.filter(servedRoute), posts };
}

/** A value for each path parameter and body, from the run's data where it has some (no order unless POSTs may be sent). */
async function fill(ctx: CheckContext, routes: readonly AuthRoute[], posts: boolean): Promise<Fill> {
  const out: Fill = {};
  const needs = (prefix: string): boolean => routes.some((r) => r.path.startsWith(prefix) && r.path.includes('{'));
  const quiet = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof PrerequisiteError) return undefined;
      throw error;
    }
  };
  if (needs('/offerings/')) out.offeringId = (await quiet(() => ctx.resources.catalog()))?.offerings[0]?.id;
  if (!posts) return out;
  const quoteBody = await quoteProbeBody(ctx);
  if (quoteBody) out.quoteBody = JSON.stringify(quoteBody);
  if (routes.some((r) => r.key === 'POST /actions')) {
    const fresh = await quiet(() => ctx.resources.freshQuote());
    if (fresh)
      out.actionBody = (label) =>
        JSON.stringify(ctx.resources.actionBody(fresh.quote, ctx.resources.idempotencyKey(`auth-probe-${label}`)));
  }
  if (needs('/actions/')) out.actionId = (await quiet(() => ctx.resources.createAction('auth-probes')))?.action.id;
  return out;
}

function concretePath(route: AuthRoute, filled: Fill, seed: string): { path: string; madeUpId: boolean } {
  const real = route.path.startsWith('/offerings/') ? filled.offeringId : filled.actionId;
  const id = real ?? `provcert-auth-probe-${seed}`;
  return { path: route.path.replace(/\{[^}]+\}/g, encodeURIComponent(id)), madeUpId: real === undefined };
}

function bodyOf(route: AuthRoute, filled: Fill, label: string): string | undefined {
  if (!route.body) return undefined;
  if (route.key === 'POST /quote' && filled.quoteBody) return filled.quoteBody;
  if (route.key === 'POST /actions' && filled.actionBody) return filled.actionBody(label);
  return BODIES_OF[route.path] ?? '{}';
}

/** The same bytes with one number changed, as a party in the middle would; other bytes when there is none. */
function tampered(body: string | undefined): string {
  if (!body) return '{"tampered":true}';
  const changed = body.replace(/"quantity":(\d+)/, (_m, q: string) => `"quantity":${Number(q) + 1}`);
  return changed === body ? `${body} ` : changed;
}

/** The client's AuthOverride for a row, or undefined when the row cannot be sent for this run's secrets. */
function overrideFor(spec: CredentialSpec, ctx: CheckContext, body: string | undefined): AuthOverride | undefined {
  const [credential, webhookSecret] = ctx.secrets;
  switch (spec.kind) {
    case 'none':
    case 'other-scheme':
      return { kind: spec.kind };
    case 'wrong':
      return { kind: 'credential', credential: `provcert-wrong-credential-${ctx.config.seed}` };
    case 'webhook-secret':
      return webhookSecret && webhookSecret !== credential
        ? { kind: 'credential', credential: webhookSecret }
        : undefined;
    case 'near-miss':
      // A change that leaves the credential as it is (no letters to swap) probes nothing.
      return spec.target === 'credential' &&
        credential !== undefined &&
        nearMiss(credential, spec.change) === credential
        ? undefined
        : { kind: 'near-miss', change: spec.change, target: spec.target };
    case 'tampered-body':
      return { kind: 'sign-other-bytes', bytes: tampered(body) };
    case 'not-hex':
      return { kind: 'headers', headers: { [SIGNATURE_HEADER]: 'not-a-signature' } };
  }
}

/**
 * Routes with no authentication at all: some credential shape was accepted and none was refused with 401. One
 * finding says so for each, instead of one per shape.
 */
function unauthenticatedRoutes(rows: readonly { s: Sendable; outcome: HttpOutcome }[]): Set<string> {
  const refused = new Set<string>();
  const accepted = new Set<string>();
  for (const { s, outcome } of rows) {
    if (s.probe.shape.expect !== 'refused') continue;
    if (outcome.kind === 'response' && outcome.status === 401) refused.add(s.probe.route.key);
    if (success(outcome)) accepted.add(s.probe.route.key);
  }
  return new Set([...accepted].filter((key) => !refused.has(key)));
}

export interface AuthProbeSummary {
  probes: number;
  routes: string[];
  shapes: number;
}

/**
 * Send the authentication table for the run's auth method: every served route × every credential shape, at most
 * PROBES_IN_FLIGHT at once. POST routes only where POST requests may be sent; an action a wrongly accepted probe
 * creates is cancelled where the provider can.
 */
export async function probeAuthentication(ctx: CheckContext, f: Findings): Promise<AuthProbeSummary> {
  const method = ctx.config.auth;
  const declaredRoutes = authRoutes(ctx.contract.operations(), method);
  const { routes: servedRoutes, posts } = await served(ctx, declaredRoutes);
  const routes = servedRoutes.filter((r) => r.method === 'GET' || posts);
  const skippedPosts = servedRoutes.filter((r) => r.method !== 'GET' && !posts).map((r) => r.key);
  if (skippedPosts.length > 0)
    f.warn(
      `${skippedPosts.join(', ')} not probed without credentials: POST requests are sent only to a TRANSACTIONAL provider whose manifest declares a safe test environment`,
    );
  const filled = await fill(ctx, routes, posts);
  const sendable = authProbeTable(routes, method).flatMap((probe): Sendable[] => {
    const { path, madeUpId } = concretePath(probe.route, filled, ctx.config.seed);
    const body = bodyOf(probe.route, filled, probe.shape.id);
    const auth = overrideFor(probe.shape.credential, ctx, body);
    if (!auth) return [];
    const what = `${probe.route.method} ${path} ${probe.shape.describe}`;
    return [{ probe, what, path, body, auth, madeUpId }];
  });
  const outcomes = await inPool(
    sendable,
    (s) =>
      ctx.client.send({
        method: s.probe.route.method,
        path: s.path,
        auth: s.auth,
        ...(s.body !== undefined ? { rawBody: s.body } : {}),
      }),
    () => ctx.signal.aborted,
    PROBES_IN_FLIGHT,
  );
  const answered = sendable.flatMap((s, i) => {
    const outcome = outcomes[i];
    return outcome ? [{ s, outcome }] : [];
  });
  await judge(ctx, f, answered);
  const probeAction = filled.actionId;
  if (probeAction && !ctx.resources.createdActions().some((a) => a.id === probeAction && a.cancelled))
    await cancelCreated(ctx, probeAction);
  return {
    probes: answered.length,
    routes: [...new Set(sendable.map((s) => s.probe.route.key))],
    shapes: new Set(sendable.map((s) => s.probe.shape.id)).size,
  };
}

async function judge(
  ctx: CheckContext,
  f: Findings,
  answered: readonly { s: Sendable; outcome: HttpOutcome }[],
): Promise<void> {
  const open = unauthenticatedRoutes(answered);
  const reported = new Set<string>();
  const madeUpWarned = new Set<string>();
  for (const { s, outcome } of answered) {
    const { route, shape } = s.probe;
    const accepted = success(outcome);
    if (accepted && route.key === 'POST /actions') {
      const created = actionIdentity(accepted.json);
      if (created.id !== undefined) {
        ctx.resources.noteCreatedAction({
          id: created.id,
          ...(created.publicId ? { publicId: created.publicId } : {}),
        });
        await cancelCreated(ctx, created.id);
      }
    }
    if (accepted && route.key === 'POST /actions/{id}/cancel') ctx.resources.markCancelled(s.path.split('/')[2] ?? '');
    // Left open by the contract: any answer but a 401 means it was accepted; a refusal must still be 401.
    if (shape.expect === 'either' && !(outcome.kind === 'response' && outcome.status === 401)) continue;
    if (open.has(route.key)) {
      if (reported.has(route.key)) continue;
      reported.add(route.key);
      keepEvidence(f, outcome);
      markReproduce(f, ctx, outcome);
      f.problem(
        `${route.method} ${s.path} was never refused with 401 UNAUTHORIZED: ${shape.describe} it was answered ${describeAnswer(outcome)}, and no missing, wrong or nearly right credential was refused either; authentication is skipped on this route`,
        ctx.config.auth === 'HMAC_SIGNATURE' ? 'AUTH-HMAC-VERIFIED' : 'AUTH-MISSING-CREDENTIAL-REJECTED',
      );
      continue;
    }
    if (s.madeUpId && outcome.kind === 'response' && outcome.status === 404) {
      if (!madeUpWarned.has(route.key))
        f.warn(
          `${route.key} answered 404 for an id made up for the authentication probes; whether it checks credentials was not tested (a real id is used where POST requests may be sent)`,
          shape.requirement,
        );
      madeUpWarned.add(route.key);
      continue;
    }
    if (
      !expectError(f, outcome, {
        what: s.what,
        statuses: [401],
        codes: ['UNAUTHORIZED'],
        requirement: shape.requirement,
      })
    )
      markReproduce(f, ctx, outcome);
  }
}
