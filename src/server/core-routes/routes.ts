import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from '../http-io.js';
import { bearerToken } from '../review/provider-token.js';
import { type Route, route } from '../route-table.js';
import type { CoreRoutesDeps } from './deps.js';
import { coreRouteHandlers } from './handlers.js';
import { reviewDeskHandlers } from './review-handlers.js';
import { rotationHandlers } from './rotation-handlers.js';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

function authorized(req: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return false;
  const presented = bearerToken(req);
  // Compare digests: equal length, constant time.
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

type Guard = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Operator routes need the admin token; it is checked before the method, so a 401 says nothing about routes. */
function operatorOnly(deps: CoreRoutesDeps): Guard {
  return (req, res) => {
    if (authorized(req, deps.adminToken)) return true;
    const message =
      deps.adminToken === undefined
        ? `core routes are disabled: start the server with ${deps.adminTokenEnv} set, and send it as a bearer token`
        : 'missing or wrong bearer token (Authorization: Bearer <operator token>)';
    sendError(res, 401, 'UNAUTHORIZED', message, true);
    return false;
  };
}

/** /providers/me/* take only a provider's own token (issued at registration); the admin token is refused too. */
function providerOnly(deps: CoreRoutesDeps): Guard {
  return (req, res) => {
    const token = bearerToken(req);
    if (token !== undefined && deps.registry.byToken(token)) return true;
    const message = authorized(req, deps.adminToken)
      ? 'this route takes a provider token (issued at registration), not the operator token'
      : 'missing or wrong provider token (Authorization: Bearer <provider token>)';
    sendError(res, 401, 'UNAUTHORIZED', message, true);
    return false;
  };
}

/**
 * The core routes of `provcert serve` (docs/core-server.md, "Core routes"): one line per route, its
 * handler in handlers.ts or review-handlers.ts. The core server puts them in its route table after the
 * webhook routes.
 */
export function createCoreRoutes(deps: CoreRoutesDeps): Route[] {
  const handle = coreRouteHandlers(deps);
  const desk = reviewDeskHandlers(deps);
  const rotation = rotationHandlers(deps);
  const operator = { guard: operatorOnly(deps) };
  const provider = { guard: providerOnly(deps) };
  return [
    route('POST', '/api/v1/providers/register', handle.register, {
      ...operator,
      wrongMethod: (_method, path) => `use POST on ${path}`,
    }),
    route('GET', '/api/v1/providers/find', desk.find),
    route('GET', '/api/v1/providers/me/dashboard', desk.dashboard, provider),
    route('GET', '/api/v1/providers/me/actions/:actionId', desk.myAction, provider),
    route('POST', '/api/v1/providers/me/rotate-webhook-secret', rotation.byProvider, provider),
    route('POST', '/api/v1/providers/:slug/certify', handle.certify, operator),
    route('GET', '/api/v1/providers/:slug/certifications', handle.certifications, operator),
    route('GET', '/api/v1/providers/:slug/certifications/:id', handle.certification, operator),
    route('POST', '/api/v1/providers/:slug/submit-review', handle.submitReview, operator),
    route('GET', '/api/v1/providers/:slug/events', handle.events, operator),
    route('GET', '/api/v1/admin/providers', desk.adminProviders, operator),
    route('GET', '/api/v1/admin/providers/:slug', desk.adminProvider, operator),
    route('POST', '/api/v1/admin/providers/:slug/review', desk.review, operator),
    route('POST', '/api/v1/admin/providers/:slug/reopen', desk.reopen, operator),
    route('POST', '/api/v1/admin/providers/:slug/rotate-webhook-secret', rotation.byOperator, operator),
    route('GET', '/api/v1/admin/logs/events', desk.logs, operator),
    route('GET', '/api/v1/admin/logs/export', desk.exportLogs, operator),
  ];
}
