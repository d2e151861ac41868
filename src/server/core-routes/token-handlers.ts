import { sendError, sendJson } from '../http-io.js';
import type { RouteRequest } from '../route-table.js';
import { type IssuedToken, issueToken, secretPartOf, type TokenRole } from '../tokens/core-tokens.js';
import type { LedgerEntry } from '../tokens/token-ledger.js';
import type { CoreContext } from './context.js';
import type { Operator } from './guards.js';

/** Issues a token signed with the core's current key and records it (claims, sealed token) in the ledger. */
export async function issueAndRecord(ctx: CoreContext, role: TokenRole, sub: string): Promise<IssuedToken> {
  const issued = await issueToken(ctx.keys, role, sub, ctx.now());
  await ctx.tokens.record(issued);
  // From now on every answer and the log mask it (its signature: the part that makes it a credential).
  ctx.issued?.(secretPartOf(issued.token));
  return issued;
}

/** A token as answered the one time it is shown (CoreIssuedToken). */
export const issuedView = (issued: IssuedToken, note: string) => ({
  token: issued.token,
  jti: issued.claims.jti,
  role: issued.claims.role,
  sub: issued.claims.sub,
  kid: issued.kid,
  expiresAt: new Date(issued.claims.exp * 1000).toISOString(),
  note,
});

const ledgerView = (e: LedgerEntry) => ({
  jti: e.jti,
  role: e.role,
  sub: e.sub,
  issuedAt: e.issuedAt,
  expiresAt: e.expiresAt,
  ...(e.revokedAt !== undefined ? { revokedAt: e.revokedAt } : {}),
});

/** POST /admin/tokens (operator): an admin token (a JWT, valid a day), shown once. */
export async function issueAdminToken(ctx: CoreContext, { res }: RouteRequest<unknown, Operator>): Promise<void> {
  const issued = await issueAndRecord(ctx, 'admin', 'operator');
  ctx.log?.(`admin token ${issued.claims.jti} issued`);
  sendJson(res, 201, issuedView(issued, 'the admin token is shown only now; revoke it by its jti'));
}

/** POST /admin/tokens/{jti}/revoke (operator): the token is refused from now on (401 naming the revocation). */
export async function revokeToken(
  ctx: CoreContext,
  { res, params: { jti } }: RouteRequest<{ jti: string }, Operator>,
): Promise<void> {
  const outcome = await ctx.tokens.revoke(jti, ctx.now());
  if (outcome.kind === 'not-found')
    return sendError(res, 404, 'NOT_FOUND', `no token with jti "${jti}" was issued by this core`);
  if (!outcome.already) ctx.log?.(`token ${jti} (${outcome.entry.role} ${outcome.entry.sub}) revoked`);
  sendJson(res, 200, ledgerView(outcome.entry));
}
