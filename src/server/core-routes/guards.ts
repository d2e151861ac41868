import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from '../http-io.js';
import { bearerToken } from '../review/provider-token.js';
import type { Guard } from '../route-table.js';
import { type CoreClaims, looksLikeJwt, verifyToken } from '../tokens/core-tokens.js';
import type { CoreRoutesDeps } from './deps.js';
import type { StoredProvider } from './registry.js';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

type GuardDeps = Pick<CoreRoutesDeps, 'adminToken' | 'adminTokenEnv' | 'keys' | 'tokens' | 'accounts' | 'now'>;

function authorized(req: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return false;
  const presented = bearerToken(req);
  // Compare digests: equal length, constant time.
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

/** The operator: the bootstrap token from the environment, or an admin JWT the core issued. */
export interface Operator {
  readonly actor: 'admin';
}

/** An account token: the account's own providers only. */
export interface AccountCaller {
  readonly actor: 'account';
  readonly accountId: string;
}

export type Caller = Operator | AccountCaller;

const OPERATOR: Operator = { actor: 'admin' };

/** The verified claims of the request's JWT; undefined without one; a string says why it was refused. */
async function claimsOf(req: IncomingMessage, deps: GuardDeps): Promise<CoreClaims | string | undefined> {
  const token = bearerToken(req);
  if (token === undefined || !looksLikeJwt(token)) return undefined;
  const now = deps.now?.() ?? new Date();
  const checked = await verifyToken(token, deps.keys, (jti) => deps.tokens.isRevoked(jti), now);
  return checked.ok ? checked.claims : checked.reason;
}

function refuse(res: ServerResponse, message: string): undefined {
  sendError(res, 401, 'UNAUTHORIZED', message, true);
  return undefined;
}

/** Who the request's token makes the caller, among the roles `roles` admits; undefined = refused (answered). */
async function callerOf(
  req: IncomingMessage,
  res: ServerResponse,
  deps: GuardDeps,
  accounts: boolean,
): Promise<Caller | undefined> {
  if (authorized(req, deps.adminToken)) return OPERATOR;
  const wanted = accounts
    ? 'the operator token, an admin token or an account token'
    : 'the operator token or an admin token';
  if (deps.adminToken === undefined)
    return refuse(
      res,
      `core routes are disabled: start the server with ${deps.adminTokenEnv} set, and send it as a bearer token`,
    );
  const claims = await claimsOf(req, deps);
  if (typeof claims === 'string') return refuse(res, `${claims} (this route takes ${wanted})`);
  if (claims?.role === 'admin') return OPERATOR;
  if (accounts && claims?.role === 'account' && deps.accounts.get(claims.sub))
    return { actor: 'account', accountId: claims.sub };
  if (claims) return refuse(res, `this route takes ${wanted}, not a ${claims.role} token`);
  return refuse(res, `missing or wrong bearer token (this route takes ${wanted})`);
}

/** Operator routes need the operator (env or admin JWT); checked before the method, so a 401 says nothing about routes. */
export function operatorOnly(deps: GuardDeps): Guard<Operator> {
  return async (req, res) => {
    const caller = await callerOf(req, res, deps, false);
    return caller?.actor === 'admin' ? caller : undefined;
  };
}

/** Onboarding routes: the operator, or an account (its own providers only: the handler checks the slug). */
export function operatorOrAccount(deps: GuardDeps): Guard<Caller> {
  return (req, res) => callerOf(req, res, deps, true);
}

/** Whether the caller may see this provider: the operator any, an account only its own. */
export const mayActOn = (caller: Caller | undefined, provider: StoredProvider): boolean =>
  caller === undefined || caller.actor === 'admin' || provider.accountId === caller.accountId;

/**
 * /providers/me/* take only a provider's own token: a provider JWT the core issued at registration, or the opaque
 * `pvt_` token of a data dir from before JWTs (accepted until the provider is registered anew). The admin token is
 * refused. Grants the provider the token names, so the handler never works it out again.
 */
export function providerOnly(deps: GuardDeps & Pick<CoreRoutesDeps, 'registry'>): Guard<StoredProvider> {
  return async (req, res) => {
    const token = bearerToken(req);
    const legacy = token === undefined || looksLikeJwt(token) ? undefined : deps.registry.byToken(token);
    if (legacy) return legacy;
    const claims = await claimsOf(req, deps);
    if (typeof claims === 'string') return refuse(res, `${claims} (this route takes a provider token)`);
    const provider = claims?.role === 'provider' ? deps.registry.get(claims.sub) : undefined;
    if (provider) return provider;
    const message = authorized(req, deps.adminToken)
      ? 'this route takes a provider token (issued at registration), not the operator token'
      : claims
        ? `this route takes a provider token (issued at registration), not a${claims.role === 'admin' ? 'n' : ''} ${claims.role} token`
        : 'missing or wrong provider token (Authorization: Bearer <provider token>)';
    return refuse(res, message);
  };
}

/**
 * Whether the request's token may read an unlisted provider (its certificate, its badge): the operator (env or admin
 * JWT), the provider's own token (JWT or opaque) or the account that owns it. Answers nothing itself.
 */
export async function mayReadUnlisted(
  req: IncomingMessage,
  deps: GuardDeps & Pick<CoreRoutesDeps, 'registry'>,
  provider: StoredProvider,
): Promise<boolean> {
  if (authorized(req, deps.adminToken)) return true;
  const token = bearerToken(req);
  if (token !== undefined && !looksLikeJwt(token)) return deps.registry.byToken(token) === provider;
  const claims = await claimsOf(req, deps);
  if (claims === undefined || typeof claims === 'string') return false;
  if (claims.role === 'admin') return true;
  if (claims.role === 'provider') return claims.sub === provider.registration.slug;
  return provider.accountId !== undefined && provider.accountId === claims.sub;
}
