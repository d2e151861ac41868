import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { sendError } from '../http-io.js';
import { bearerToken } from '../review/provider-token.js';
import type { Guard } from '../route-table.js';
import type { CoreRoutesDeps } from './deps.js';
import type { StoredProvider } from './registry.js';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

function authorized(req: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return false;
  const presented = bearerToken(req);
  // Compare digests: equal length, constant time.
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

/** Whether the request carries the operator token (for routes that answer more to the operator). */
export const holdsOperatorToken = (req: IncomingMessage, deps: Pick<CoreRoutesDeps, 'adminToken'>): boolean =>
  authorized(req, deps.adminToken);

/** What the operator guard grants: the caller holds the admin token. */
export interface Operator {
  readonly actor: 'admin';
}

const OPERATOR: Operator = { actor: 'admin' };

/** Operator routes need the admin token; it is checked before the method, so a 401 says nothing about routes. */
export function operatorOnly(deps: Pick<CoreRoutesDeps, 'adminToken' | 'adminTokenEnv'>): Guard<Operator> {
  return (req, res) => {
    if (authorized(req, deps.adminToken)) return OPERATOR;
    const message =
      deps.adminToken === undefined
        ? `core routes are disabled: start the server with ${deps.adminTokenEnv} set, and send it as a bearer token`
        : 'missing or wrong bearer token (Authorization: Bearer <operator token>)';
    sendError(res, 401, 'UNAUTHORIZED', message, true);
    return undefined;
  };
}

/**
 * /providers/me/* take only a provider's own token (issued at registration); the admin token is refused too.
 * Grants the provider the token names, so the handler never works it out again.
 */
export function providerOnly(deps: Pick<CoreRoutesDeps, 'adminToken' | 'registry'>): Guard<StoredProvider> {
  return (req, res) => {
    const token = bearerToken(req);
    const provider = token === undefined ? undefined : deps.registry.byToken(token);
    if (provider) return provider;
    const message = authorized(req, deps.adminToken)
      ? 'this route takes a provider token (issued at registration), not the operator token'
      : 'missing or wrong provider token (Authorization: Bearer <provider token>)';
    sendError(res, 401, 'UNAUTHORIZED', message, true);
    return undefined;
  };
}
