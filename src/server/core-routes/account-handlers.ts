import { sendError, sendJson } from '../http-io.js';
import type { RouteRequest } from '../route-table.js';
import { type CoreContext, viewOf } from './context.js';
import type { Caller, Operator } from './guards.js';
import { readJsonBody } from './request-input.js';
import { issueAndRecord, issuedView } from './token-handlers.js';

const MAX_NAME = 200;

/** POST /admin/accounts (operator): a new account and its token, the token shown only now. */
export async function createAccount(ctx: CoreContext, { req, res }: RouteRequest<unknown, Operator>): Promise<void> {
  const body = await readJsonBody(req, res);
  if (!body.ok) return;
  const checked = ctx.contract.validateRequest('POST /api/v1/admin/accounts', body.value);
  if (checked && !checked.valid)
    return sendError(
      res,
      400,
      'INVALID_ARGUMENT',
      `invalid account: ${checked.problems.map((p) => p.text).join('; ')}`,
    );
  const raw = (body.value as { name?: unknown }).name;
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (name === '' || name.length > MAX_NAME)
    return sendError(res, 400, 'INVALID_ARGUMENT', `invalid account: name must be 1 to ${MAX_NAME} characters`);
  const account = await ctx.accounts.create(name, ctx.now());
  const issued = await issueAndRecord(ctx, 'account', account.id);
  ctx.log?.(`account ${account.id} created (token ${issued.claims.jti})`);
  sendJson(res, 201, {
    account,
    token: issuedView(
      issued,
      "the account token is shown only now; it registers, certifies and submits this account's providers",
    ),
  });
}

/**
 * POST /admin/accounts/{id}/tokens (operator): a new token for the account, shown once (after a revocation, or before
 * the old one expires); earlier tokens stay valid until revoked or expired.
 */
export async function newAccountToken(
  ctx: CoreContext,
  { res, params: { id } }: RouteRequest<{ id: string }, Operator>,
): Promise<void> {
  if (!ctx.accounts.get(id)) return sendError(res, 404, 'NOT_FOUND', `no account "${id}"`);
  const issued = await issueAndRecord(ctx, 'account', id);
  ctx.log?.(`account ${id}: token ${issued.claims.jti} issued`);
  sendJson(
    res,
    201,
    issuedView(issued, 'the account token is shown only now; earlier tokens stay valid until revoked'),
  );
}

/** GET /admin/accounts (operator): every account, oldest first (no token: tokens are shown once). */
export function listAccounts(ctx: CoreContext, { res }: RouteRequest<unknown, Operator>): void {
  const data = ctx.accounts.list();
  sendJson(res, 200, { data, total: data.length });
}

/** GET /account/providers (an account; the operator sees every provider): the caller's own providers. */
export async function ownProviders(ctx: CoreContext, { res, granted }: RouteRequest<unknown, Caller>): Promise<void> {
  const own = ctx.registry.list().filter((p) => granted.actor === 'admin' || p.accountId === granted.accountId);
  const data = await Promise.all(own.map((p) => viewOf(ctx, p)));
  sendJson(res, 200, {
    ...(granted.actor === 'account' ? { account: ctx.accounts.get(granted.accountId) } : {}),
    data,
    total: data.length,
  });
}
