import type { Route } from '../route-table.js';
import { route } from '../route-table.js';
import { createAccount, listAccounts, newAccountToken, ownProviders } from './account-handlers.js';
import { badge } from './badge-handlers.js';
import { certificate } from './certificate-handlers.js';
import { certification, certifications, certify, submitReview } from './certification-handlers.js';
import { bind, coreContext } from './context.js';
import { dashboard, myAction } from './dashboard-handlers.js';
import { reopen, review } from './decision-handlers.js';
import type { CoreRoutesDeps } from './deps.js';
import { events, storedEvent } from './event-handlers.js';
import { operatorOnly, operatorOrAccount, providerOnly } from './guards.js';
import { jwks, rotateSigningKey } from './key-handlers.js';
import { adminProvider, adminProviders, find } from './listing-handlers.js';
import { exportLogs, logs } from './log-handlers.js';
import { register } from './registration-handlers.js';
import { rotateByOperator, rotateByProvider } from './rotation-handlers.js';
import { issueAdminToken, revokeToken } from './token-handlers.js';

/**
 * The core routes of `provcert serve` (docs/core-server.md, "Core routes"): one line per route, its handler a
 * function of `(context, request)` in the file of its resource; the guard hands the handler what it learned
 * (`granted`: the operator, the account, or the provider the token names). The core server puts them in its route table
 * after the webhook routes.
 */
export function createCoreRoutes(deps: CoreRoutesDeps): Route[] {
  const ctx = coreContext(deps);
  const operator = { guard: operatorOnly(deps) };
  const provider = { guard: providerOnly(deps) };
  // The operator or an account: an account reaches its own providers only (another's is 404).
  const onboarding = { guard: operatorOrAccount(deps) };
  return [
    route('POST', '/api/v1/providers/register', bind(ctx, register), {
      ...onboarding,
      wrongMethod: (_method, path) => `use POST on ${path}`,
    }),
    route('GET', '/api/v1/providers/find', bind(ctx, find)),
    route('GET', '/api/v1/.well-known/jwks.json', bind(ctx, jwks)),
    route('GET', '/api/v1/providers/:slug/certificate', bind(ctx, certificate)),
    route('GET', '/api/v1/providers/:slug/badge.svg', bind(ctx, badge)),
    route('GET', '/api/v1/providers/me/dashboard', bind(ctx, dashboard), provider),
    route('GET', '/api/v1/providers/me/actions/:actionId', bind(ctx, myAction), provider),
    route('POST', '/api/v1/providers/me/rotate-webhook-secret', bind(ctx, rotateByProvider), provider),
    route('POST', '/api/v1/providers/:slug/certify', bind(ctx, certify), onboarding),
    route('GET', '/api/v1/providers/:slug/certifications', bind(ctx, certifications), onboarding),
    route('GET', '/api/v1/providers/:slug/certifications/:id', bind(ctx, certification), onboarding),
    route('POST', '/api/v1/providers/:slug/submit-review', bind(ctx, submitReview), onboarding),
    route('GET', '/api/v1/providers/:slug/events', bind(ctx, events), onboarding),
    route('GET', '/api/v1/providers/:slug/events/:eventId', bind(ctx, storedEvent), onboarding),
    route('GET', '/api/v1/account/providers', bind(ctx, ownProviders), onboarding),
    route('GET', '/api/v1/admin/providers', bind(ctx, adminProviders), operator),
    route('GET', '/api/v1/admin/providers/:slug', bind(ctx, adminProvider), operator),
    route('POST', '/api/v1/admin/providers/:slug/review', bind(ctx, review), operator),
    route('POST', '/api/v1/admin/providers/:slug/reopen', bind(ctx, reopen), operator),
    route('POST', '/api/v1/admin/providers/:slug/rotate-webhook-secret', bind(ctx, rotateByOperator), operator),
    route('POST', '/api/v1/admin/signing-key/rotate', bind(ctx, rotateSigningKey), operator),
    route('POST', '/api/v1/admin/accounts', bind(ctx, createAccount), operator),
    route('GET', '/api/v1/admin/accounts', bind(ctx, listAccounts), operator),
    route('POST', '/api/v1/admin/accounts/:id/tokens', bind(ctx, newAccountToken), operator),
    route('POST', '/api/v1/admin/tokens', bind(ctx, issueAdminToken), operator),
    route('POST', '/api/v1/admin/tokens/:jti/revoke', bind(ctx, revokeToken), operator),
    route('GET', '/api/v1/admin/logs/events', bind(ctx, logs), operator),
    route('GET', '/api/v1/admin/logs/export', bind(ctx, exportLogs), operator),
  ];
}
