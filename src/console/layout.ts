import { type Html, html } from './html.js';
import type { Flash, Session } from './session.js';

export const CONSOLE_PREFIX = '/console';

/** Every page's frame: one stylesheet, one script file, a skip link, the navigation and sign-out. */
export function page(title: string, main: Html, session?: Session, flash?: Flash): string {
  const p = session?.principal;
  const who = p
    ? p.kind === 'admin'
      ? 'operator'
      : p.kind === 'account'
        ? `account ${p.name}`
        : `provider ${p.slug}`
    : undefined;
  const nav = session
    ? html`<nav aria-label="Console"><a href="${CONSOLE_PREFIX}/">${p?.kind === 'admin' ? 'Providers' : p?.kind === 'account' ? 'My providers' : 'My provider'}</a></nav>
<span>Signed in as ${who}</span>
<form method="post" action="${CONSOLE_PREFIX}/sign-out"><input type="hidden" name="csrf" value="${session.csrf}"><button type="submit">Sign out</button></form>`
    : html``;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · provcert console</title>
<link rel="stylesheet" href="${CONSOLE_PREFIX}/static/console.css">
<script src="${CONSOLE_PREFIX}/static/console.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><span class="brand">provcert console</span>${nav}</header>
<main id="main">
<h1>${title}</h1>
${flash ? html`<p class="flash ${flash.kind}" role="${flash.kind === 'error' ? 'alert' : 'status'}">${flash.kind === 'error' ? 'Error: ' : ''}${flash.text}</p>` : ''}
${main}
</main>
</body>
</html>
`.text;
}

/** A table with a caption, scrolling sideways on a narrow screen rather than overflowing it. */
export function table(caption: string, head: string[], rows: Html[], id?: string): Html {
  // Focusable and named, so a keyboard user can scroll a wide table sideways.
  return html`<div class="scroll" tabindex="0" role="region" aria-label="${caption}"><table${id ? html` id="${id}"` : ''}><caption class="hint">${caption}</caption><thead><tr>${head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>`;
}
