import type { RouteRequest } from '../server/route-table.js';
import { API, apiError } from './api.js';
import { type ConsoleContext, expired } from './context.js';
import { rotationShown } from './data.js';
import type { PostedFor } from './guards.js';
import { sendPage } from './respond.js';
import { notRotatedPage, rotatedPage } from './rotation-page.js';
import type { Principal } from './session.js';

const SPENT =
  'Nothing was rotated: this rotation form was already sent (a reload or going back sends it again) or has expired. A new secret is shown only once, on the page that answered the rotation. To rotate again, use the form on the provider page.';

/**
 * Who acts decides the rotation route: the operator names the slug; a provider rotates through
 * /providers/me/… with its own token, which can only ever rotate its own secret (never the operator's token:
 * readToken is for reading pages only).
 */
function rotationRoute(principal: Principal, slug: string): string {
  return principal.kind === 'admin' ? API.rotateWebhookSecret(slug) : API.rotateOwnWebhookSecret;
}

/**
 * POST …/rotate-webhook-secret: the one form that answers with a page instead of a redirect: the new secret
 * is in the API's answer only, and may not pass through a URL, a cookie or the session, so it is rendered
 * straight from it (no-store, never logged, never kept). Its one-time token is spent before the API is called:
 * a re-sent post rotates nothing and shows nothing. The operator and a provider session share it; only the
 * API route differs (rotationRoute), always called with the session's own token.
 */
export async function rotateSecret(
  ctx: ConsoleContext,
  { res, granted: { session, form, slug } }: RouteRequest<{ slug: string }, PostedFor>,
): Promise<void> {
  if (form.get('confirm') !== 'yes')
    return sendPage(
      res,
      400,
      notRotatedPage(session, slug, 'Nothing was rotated: tick the confirmation box to rotate the webhook secret.'),
    );
  if (!ctx.rotationForms.spend(session, slug, form.get('once') ?? ''))
    return sendPage(res, 409, notRotatedPage(session, slug, SPENT));
  const answer = await ctx.api.call(session.token, 'POST', rotationRoute(session.principal, slug));
  if (answer.status === 401) return expired(ctx, res, session);
  const shown = answer.status === 200 ? rotationShown(answer.body) : undefined;
  if (shown) return sendPage(res, 200, rotatedPage(session, slug, shown));
  const configured =
    answer.status === 404
      ? " Slugs serve was started with (its providers setting) take their secret from serve's configuration and are not rotated by the API."
      : '';
  sendPage(
    res,
    answer.status === 404 ? 404 : 502,
    notRotatedPage(session, slug, `Nothing was rotated: ${apiError(answer)}.${configured}`),
  );
}
