import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from '../http-io.js';
import { type Route, route } from '../route-table.js';
import type { CoreRoutesDeps } from './deps.js';
import { coreRouteHandlers } from './handlers.js';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

function authorized(req: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return false;
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  // Compare digests: equal length, constant time.
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1].trim()), digest(token));
}

/** Every core route needs the operator token; it is checked before the method, so a 401 says nothing about routes. */
function operatorOnly(deps: CoreRoutesDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
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

/**
 * The core routes of `provcert serve` (docs/core-server.md, "Core routes"): one line per route, its
 * handler in handlers.ts. The core server puts them in its route table after the webhook routes.
 */
export function createCoreRoutes(deps: CoreRoutesDeps): Route[] {
  const handle = coreRouteHandlers(deps);
  const operator = { guard: operatorOnly(deps) };
  return [
    route('POST', '/api/v1/providers/register', handle.register, {
      ...operator,
      wrongMethod: (_method, path) => `use POST on ${path}`,
    }),
    route('POST', '/api/v1/providers/:slug/certify', handle.certify, operator),
    route('GET', '/api/v1/providers/:slug/certifications', handle.certifications, operator),
    route('GET', '/api/v1/providers/:slug/certifications/:id', handle.certification, operator),
    route('POST', '/api/v1/providers/:slug/submit-review', handle.submitReview, operator),
    route('GET', '/api/v1/providers/:slug/events', handle.events, operator),
  ];
}
