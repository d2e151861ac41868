import type { ServerResponse } from 'node:http';
import { sendError, sendJson } from '../http-io.js';
import { illegalTransitionMessage } from '../review/lifecycle.js';
import type { RouteRequest } from '../route-table.js';
import { actorOf, type CoreContext } from './context.js';
import type { Caller } from './guards.js';
import { parseRegistration, type Registration } from './registration.js';
import type { RegisterOutcome } from './registry.js';
import { readCredential, readJsonBody } from './request-input.js';
import { issueAndRecord } from './token-handlers.js';
import { providerView } from './views.js';

/**
 * POST /providers/register (operator, or an account: its own providers, "save API settings"): a new provider, or a
 * changed configuration of a registered one. A new provider gets its provider token (a JWT), shown once.
 */
export async function register(ctx: CoreContext, { req, res, granted }: RouteRequest<unknown, Caller>): Promise<void> {
  const body = await readJsonBody(req, res);
  if (!body.ok) return;
  const parsed = parseRegistration(body.value, ctx.contract, ctx.rules());
  if (!parsed.ok) return sendError(res, 400, 'INVALID_ARGUMENT', `invalid registration: ${parsed.problems.join('; ')}`);
  const core = ctx.core();
  if (!core) return sendError(res, 500, 'INTERNAL_ERROR', 'the core is not ready');
  const accountId = granted.actor === 'account' ? granted.accountId : undefined;
  const outcome = await ctx.registry.register(parsed.value, ctx.now(), actorOf(granted), accountId);
  if (outcome.kind !== 'ok') return refuseRegistration(res, parsed.value, outcome);
  const { provider, created, recertify } = outcome;
  const providerToken = created ? (await issueAndRecord(ctx, 'provider', provider.registration.slug)).token : undefined;
  // The credential it names is a secret serve knows from now on: every output masks it.
  const credential = await readCredential(provider, ctx.env, ctx.credentialDir);
  if (credential.ok) ctx.issued?.(credential.credential);
  const url = core.urlFor(provider.registration.slug);
  ctx.log?.(
    `provider ${provider.registration.slug} ${created ? 'registered' : 'updated'}${recertify ? ' (certification required again)' : ''}`,
  );
  const webhook = created
    ? {
        url,
        secret: provider.webhookSecret,
        note: 'the webhook secret is shown only now: configure it in the provider backend',
      }
    : { url, note: 'the webhook secret is unchanged and not shown again' };
  sendJson(res, created ? 201 : 200, {
    provider: providerView(provider, url, await ctx.registry.isCertified(provider)),
    webhook,
    ...(providerToken
      ? {
          providerToken: {
            token: providerToken,
            note: 'the provider bearer token (a JWT) for /api/v1/providers/me/* is shown only now',
          },
        }
      : {}),
    certificationRequired: created || recertify,
  });
}

function refuseRegistration(
  res: ServerResponse,
  registration: Registration,
  outcome: Exclude<RegisterOutcome, { kind: 'ok' }>,
): void {
  if (outcome.kind === 'taken')
    return sendError(
      res,
      409,
      'CONFLICT',
      `the slug ${registration.slug} is taken: register your provider under another slug`,
    );
  if (outcome.kind === 'busy')
    return sendError(
      res,
      409,
      'CONFLICT',
      `another registration of ${registration.slug} is in progress; retry once it has finished`,
    );
  sendError(
    res,
    409,
    'CONFLICT',
    `${illegalTransitionMessage(registration.slug, 'UPDATE_INTEGRATION', outcome.current)} (a changed configuration is not stored; only an admin reopen moves a ${outcome.current} provider back to DRAFT)`,
  );
}
