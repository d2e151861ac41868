import type { ServerResponse } from 'node:http';
import type { components } from '../../contract/generated/contract-types.js';
import { sendError, sendJson } from '../http-io.js';
import type { Actor } from '../review/operations-log.js';
import type { RouteRequest } from '../route-table.js';
import type { CoreContext, SlugRequest } from './context.js';
import type { Operator } from './guards.js';
import type { StoredProvider } from './registry.js';

/** The answer, the one time the new secret is shown: the spec's CoreWebhookSecretRotation. */
export type RotationView = components['schemas']['CoreWebhookSecretRotation'];

/**
 * Webhook secret rotation (contract, Authentication §5: "a lost secret is replaced by rotating it"): the
 * operator rotates any provider's secret, a provider its own. The new secret is answered once and never again.
 */
async function rotate(ctx: CoreContext, res: ServerResponse, slug: string, actor: Actor): Promise<void> {
  const core = ctx.core();
  if (!core) return sendError(res, 500, 'INTERNAL_ERROR', 'the core is not ready');
  const outcome = await ctx.registry.rotateWebhookSecret(slug, ctx.webhookSecretOverlapMs, ctx.now(), actor);
  if (outcome.kind === 'not-found') return sendError(res, 404, 'NOT_FOUND', `no provider "${slug}" is registered`);
  const { provider, entry } = outcome;
  ctx.issued?.(provider.webhookSecret);
  const overlap = entry.overlapSeconds > 0;
  ctx.log?.(
    `webhook secret of ${slug} rotated by ${actor}${overlap ? `; the previous secret is accepted until ${entry.previousValidUntil}` : '; the previous secret is no longer accepted'}`,
  );
  const view: RotationView = {
    slug,
    webhook: {
      url: core.urlFor(slug),
      secret: provider.webhookSecret,
      note: `the new webhook secret is shown only now: configure it in the provider backend${overlap ? '; until then events signed with the previous secret are accepted and marked verifiedWith "previous"' : '; events signed with the previous secret are refused (401) from now on'}`,
    },
    rotatedAt: entry.at,
    overlapSeconds: entry.overlapSeconds,
    previousSecretValidUntil: entry.previousValidUntil,
  };
  sendJson(res, 200, view);
}

/** POST /admin/providers/{slug}/rotate-webhook-secret (operator token). */
export const rotateByOperator = (ctx: CoreContext, { res, params: { slug } }: SlugRequest<Operator>): Promise<void> =>
  rotate(ctx, res, slug, 'admin');

/** POST /providers/me/rotate-webhook-secret (the provider's own token: the guard granted its provider). */
export const rotateByProvider = (
  ctx: CoreContext,
  { res, granted }: RouteRequest<unknown, StoredProvider>,
): Promise<void> => rotate(ctx, res, granted.registration.slug, 'provider');
