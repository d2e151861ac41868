import { UsageError } from '../../model/errors.js';
import { sendError, sendJson } from '../http-io.js';
import type { RouteRequest } from '../route-table.js';
import type { CoreContext } from './context.js';
import type { Operator } from './guards.js';

/** GET /.well-known/jwks.json (public): the core's public keys, the current one first, retired ones with their validity. */
export function jwks(ctx: CoreContext, { res }: RouteRequest<unknown>): void {
  sendJson(res, 200, ctx.keys.jwks(), { 'cache-control': 'public, max-age=300' });
}

/**
 * POST /admin/signing-key/rotate (operator): a new key signs from now on; the old one stays in the JWKS, retired,
 * so what it signed stays verifiable.
 */
export async function rotateSigningKey(ctx: CoreContext, { res }: RouteRequest<unknown, Operator>): Promise<void> {
  const before = ctx.keys.signingKey().kid;
  try {
    const key = await ctx.keys.rotate(ctx.now());
    ctx.log?.(`signing key rotated: ${before} retired, ${key.kid} signs from now on`);
    sendJson(res, 200, { kid: key.kid, retired: before, validFrom: key.createdAt });
  } catch (e) {
    if (e instanceof UsageError) return sendError(res, 409, 'CONFLICT', e.message);
    throw e;
  }
}
