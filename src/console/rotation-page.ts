import type { RotationShown } from './data.js';
import { type Html, html, seg } from './html.js';
import { CONSOLE_PREFIX, page } from './layout.js';
import type { Session } from './session.js';

const back = (slug: string): Html =>
  html`<p><a href="${CONSOLE_PREFIX}/providers/${seg(slug)}">Back to ${slug}</a></p>`;

/**
 * The answer to the rotate form, the only page that ever holds the new secret: sent directly (no redirect,
 * since a secret may not travel through a URL, a cookie or the session), never stored (no-store), and its
 * form token is spent, so a reload or going back cannot show it again. The console script blanks the
 * secret when the page is left, so no back/forward snapshot keeps it either.
 */
export function rotatedPage(session: Session, slug: string, r: RotationShown): string {
  const previous =
    r.overlapSeconds > 0
      ? html`accepted until <strong id="previous-valid-until">${r.previousSecretValidUntil}</strong> (the ${r.overlapSeconds}-second overlap window), then refused`
      : html`refused from now on (this server has no overlap window)`;
  const main = html`<p class="flash ok" role="status">The webhook secret of ${slug} was rotated at ${r.rotatedAt}.</p>
<section class="panel" aria-labelledby="new-secret-title"><h2 id="new-secret-title">New webhook secret, shown once</h2>
<p><strong>Copy it now.</strong> This page is not stored, and the console cannot show the secret again: reloading or going back does not, and rotating again makes another one.</p>
<p class="secret"><code id="new-secret" translate="no" data-shown-once>${r.secret}</code></p>
<dl class="fields"><dt>Webhook URL</dt><dd>${r.url}</dd><dt>Rotated at</dt><dd>${r.rotatedAt}</dd><dt>Previous secret</dt><dd>${previous}</dd></dl>
<p class="text">${r.note}</p>
</section>
${back(slug)}`;
  return page('Webhook secret rotated', main, session);
}

/** Why nothing was rotated: a spent or unknown form token, a missing confirmation, or the API's refusal. */
export function notRotatedPage(session: Session, slug: string, why: Html | string): string {
  return page('Webhook secret not rotated', html`<p class="flash error" role="alert">${why}</p>${back(slug)}`, session);
}
