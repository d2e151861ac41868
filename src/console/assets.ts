import { createHash } from 'node:crypto';
import { HTML_STYLE } from '../report/html-style.js';

/**
 * The console's stylesheet: the HTML report's (one look, one file to maintain) plus the few rules the
 * console's own pages need (navigation, forms, narrow screens, keyboard focus). Status is always a word,
 * never a colour alone, so the pages read the same without colour.
 */
const CONSOLE_RULES = `
.skip { position: absolute; left: -9999px; } .skip:focus { left: 1rem; top: 1rem; background: Canvas; padding: .5rem; z-index: 2; }
:focus-visible { outline: 3px solid #0969da; outline-offset: 2px; }
.top { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: center; border-bottom: 1px solid var(--line); padding-bottom: .75rem; margin-bottom: 1rem; }
.top .brand { font-weight: 700; margin-right: auto; }
.top form { margin: 0; }
a { color: #0550ae; } @media (prefers-color-scheme: dark) { a { color: #79c0ff; } }
.scroll { overflow-x: auto; }
.flash, .warning { border: 1px solid var(--line); border-left-width: 6px; border-radius: 6px; padding: .5rem .75rem; margin: .75rem 0; overflow-wrap: anywhere; white-space: pre-wrap; }
.flash.error, .warning { border-left-color: var(--fail); } .flash.ok { border-left-color: var(--pass); }
.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin: .75rem 0; }
.filters label, .stack label { display: flex; flex-direction: column; gap: .15rem; font-weight: 600; }
input, select, textarea { font: inherit; padding: .3rem .45rem; border: 1px solid #6e7781; border-radius: 6px; background: Field; color: FieldText; max-width: 100%; }
textarea { width: 100%; min-height: 4.5rem; }
.stack { display: grid; gap: .6rem; max-width: 40rem; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin: .5rem 0; }
.actions form { margin: 0; }
button:disabled { opacity: .6; cursor: not-allowed; border-style: dashed; }
button.primary { border-color: #0969da; font-weight: 600; }
dl.fields { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
dl.fields dt { font-weight: 600; } dl.fields dd { margin: 0; overflow-wrap: anywhere; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.status-word { font-weight: 700; }
.hint { font-size: .9rem; }
.field-error { color: var(--fail); font-weight: 600; margin: 0; }
.stack label.check { flex-direction: row; align-items: baseline; gap: .5rem; }
.secret code { display: inline-block; font-size: 1.05rem; padding: .4rem .6rem; border: 1px solid var(--line); border-radius: 6px; overflow-wrap: anywhere; word-break: break-all; user-select: all; }
section.panel { border-top: 1px solid var(--line); margin-top: 1.5rem; }
@media (max-width: 600px) {
  body { padding: .75rem; }
  dl.fields { grid-template-columns: 1fr; }
  .side-by-side { grid-template-columns: 1fr; }
}
`;

export const CONSOLE_STYLE = `${HTML_STYLE}${CONSOLE_RULES}`;

/**
 * The console's one script (served as a file: the CSP allows no inline script). It only enhances:
 * every page works without it. Provider text it receives is put in the page with textContent only.
 */
export const CONSOLE_SCRIPT = `'use strict';
(function () {
  var MIN_REASON = 12;
  // The decision form: a reason of at least 12 characters is checked before the request is sent.
  Array.prototype.forEach.call(document.querySelectorAll('form[data-reason-check]'), function (form) {
    form.addEventListener('submit', function (event) {
      var reason = form.querySelector('[name=reason]');
      var out = form.querySelector('.field-error');
      var length = Array.from(reason.value.trim()).length;
      if (length >= MIN_REASON) { out.textContent = ''; reason.removeAttribute('aria-invalid'); return; }
      event.preventDefault();
      out.textContent = 'The reason must be at least ' + MIN_REASON + ' characters (it has ' + length + '); the provider reads it.';
      reason.setAttribute('aria-invalid', 'true');
      reason.focus();
    });
  });

  // A secret shown once: blanked when the page is left, so a back/forward snapshot of it holds no secret.
  var once = document.querySelector('[data-shown-once]');
  if (once) window.addEventListener('pagehide', function () { once.textContent = '(shown once; no longer shown)'; });

  var live = document.querySelector('[data-stream]');
  if (!live || typeof EventSource === 'undefined') return;
  var body = document.querySelector('#events tbody');
  var empty = document.querySelector('#events-empty');
  var status = document.querySelector('#live-status');
  var source = new EventSource(live.getAttribute('data-stream'));
  function cell(row, text) { var td = document.createElement('td'); td.textContent = text; row.appendChild(td); return td; }
  source.addEventListener('open', function () { if (status) status.textContent = 'Live: new events appear here as they arrive.'; });
  source.addEventListener('error', function () { if (status) status.textContent = 'Live updates paused; reconnecting…'; });
  source.addEventListener('webhook', function (message) {
    var ev = JSON.parse(message.data);
    if (!body || body.querySelector('tr[data-seq="' + Number(ev.seq) + '"]')) return;
    var row = document.createElement('tr');
    row.className = ev.verified ? 'verified' : 'bad';
    row.setAttribute('data-seq', String(ev.seq));
    cell(row, String(ev.seq));
    cell(row, ev.receivedAt);
    cell(row, ev.eventType || '');
    cell(row, ev.actionId || '');
    cell(row, ev.newStatus || '');
    var verdict = cell(row, ev.verdictText);
    verdict.className = 'status-word';
    cell(row, ev.problem || '');
    body.insertBefore(row, body.firstChild);
    if (empty) empty.hidden = true;
    var count = document.querySelector('#events-count');
    if (count) count.textContent = String(Number(count.textContent || '0') + 1);
  });
  source.addEventListener('certification', function (message) {
    var state = JSON.parse(message.data);
    var progress = document.querySelector('#certify-progress');
    if (state.state === 'finished') { source.close(); location.reload(); return; }
    if (progress) progress.textContent = state.text;
    var bar = document.querySelector('#certify-bar');
    if (bar && state.checks && state.checks.total > 0) { bar.max = state.checks.total; bar.value = state.checks.done; }
  });
})();
`;

/** The CSP hash of an inline block, for the HTML report page (its own inline style and script, nothing else). */
export const cspHash = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
