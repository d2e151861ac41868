import type { ServerResponse } from 'node:http';
import type { ReceivedWebhook } from '../../model/webhooks.js';
import { Redactor } from '../../util/redact.js';
import { decodeCursor, START_CURSOR } from '../event-pages.js';
import { sendError } from '../http-io.js';
import type { RouteRequest } from '../route-table.js';
import { CertificationProgress } from './certification-progress.js';
import type { CoreRoutesDeps } from './deps.js';
import { type Caller, mayActOn } from './guards.js';
import type { StoredProvider } from './registry.js';
import { type ProviderView, providerView } from './views.js';

/** Webhook requests read per provider for the dashboard and the operations log (the newest beyond it are left out). */
const MAX_EVENTS_READ = 10_000;

/**
 * What every core route handler shares: the dependencies `serve` supplies plus the little state the routes
 * keep between requests (the slugs being certified). Handlers are functions of `(context, request)`.
 */
export interface CoreContext extends CoreRoutesDeps {
  now(): Date;
  /** Slugs with a certification running (a second one is refused). */
  readonly running: Set<string>;
  /** Checks done out of the total of each running certification (the admin provider detail shows it). */
  readonly progress: CertificationProgress;
}

export function coreContext(deps: CoreRoutesDeps): CoreContext {
  return {
    ...deps,
    now: deps.now ?? ((): Date => new Date()),
    running: new Set(),
    progress: new CertificationProgress(),
  };
}

/** A core route handler: what the route's guard granted arrives as `request.granted`. */
export type CoreHandler<Params, Granted = undefined> = (
  ctx: CoreContext,
  request: RouteRequest<Params, Granted>,
) => Promise<void> | void;

export type SlugRequest<Granted = undefined> = RouteRequest<{ slug: string }, Granted>;

/**
 * The registered provider the path names, or a 404 answered. An account caller gets its own providers only: another
 * account's is the same 404 as an unknown slug, so an account learns nothing of the others.
 */
export function registered(
  ctx: CoreContext,
  slug: string,
  res: ServerResponse,
  caller?: Caller,
): StoredProvider | undefined {
  const found = ctx.registry.get(slug);
  const provider = found && mayActOn(caller, found) ? found : undefined;
  if (!provider) sendError(res, 404, 'NOT_FOUND', `no provider "${slug}" is registered`);
  return provider;
}

/** The operations-log actor of a caller. */
export const actorOf = (caller: Caller): 'admin' | 'account' => caller.actor;

export const webhookUrl = (ctx: CoreContext, slug: string): string => ctx.core()?.urlFor(slug) ?? '';

export const viewOf = async (ctx: CoreContext, p: StoredProvider): Promise<ProviderView> =>
  providerView(p, webhookUrl(ctx, p.registration.slug), await ctx.registry.isCertified(p));

/** Every secret this server knows: answers of the review desk are masked with all of them. */
export function redactor(ctx: CoreContext): Redactor {
  return new Redactor([
    ctx.adminToken,
    ...(ctx.extraSecrets?.() ?? []),
    ...ctx.registry.providerTokens(),
    ...ctx.tokens.secretParts(),
    ...ctx.registry.list().flatMap((p) => {
      const ref = p.registration.credential;
      return [
        p.webhookSecret,
        p.previousWebhookSecret?.secret,
        p.fingerprintKey,
        'env' in ref ? ctx.env[ref.env] : undefined,
      ];
    }),
  ]);
}

/** A provider's received webhooks, oldest first, up to MAX_EVENTS_READ. */
export async function receivedFor(ctx: CoreContext, slug: string): Promise<ReceivedWebhook[]> {
  const core = ctx.core();
  if (!core) return [];
  const out: ReceivedWebhook[] = [];
  let cursor = START_CURSOR;
  while (out.length < MAX_EVENTS_READ) {
    const found = await core.events(slug, cursor, 1_000);
    out.push(...found.items);
    if (!found.nextCursor) break;
    const next = decodeCursor(found.nextCursor);
    if (!next) break;
    cursor = next;
  }
  return out;
}

/** Binds a handler to the context: the route table calls it with the request only. */
export const bind =
  <Params, Granted>(ctx: CoreContext, handler: CoreHandler<Params, Granted>) =>
  (request: RouteRequest<Params, Granted>): Promise<void> | void =>
    handler(ctx, request);
