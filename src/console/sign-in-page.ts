import { html } from './html.js';
import { CONSOLE_PREFIX, page } from './layout.js';
import type { Flash } from './session.js';

export function signInPage(formToken: string, flash?: Flash): string {
  return page(
    'Sign in',
    html`<form class="stack" method="post" action="${CONSOLE_PREFIX}/sign-in">
<input type="hidden" name="csrf" value="${formToken}">
<label>Token <input type="password" name="token" autocomplete="current-password" required spellcheck="false"></label>
<p class="hint">The operator token (<code>PROVCERT_ADMIN_TOKEN</code>) or a provider token, as the API accepts them. It stays on the server; the browser keeps only a session cookie.</p>
<div class="actions"><button class="primary" type="submit">Sign in</button></div>
</form>`,
    undefined,
    flash,
  );
}
