import type { ChecksDone } from './certify-runner.js';
import type { AllowedMove, CertificationRow, EventRow, HistoryEntry, VisibleReason } from './data.js';
import { decisionForms, onboardingForms } from './decision-forms.js';
import { type Html, html, seg } from './html.js';
import { CONSOLE_PREFIX, page, table } from './layout.js';
import type { Flash, Session } from './session.js';

export interface ProviderPageData {
  slug: string;
  name: string;
  status: string;
  reviewStatus: string;
  certified: boolean | undefined;
  registration: [string, string][];
  reason: VisibleReason | undefined;
  /** The moves the lifecycle allows now, as the API lists them. */
  moves: AllowedMove[];
  certifications: CertificationRow[];
  /** Newest first. */
  events: EventRow[];
  eventsTotal: number;
  history: HistoryEntry[];
  /** Text of a certification started from the console and still running. */
  running: string | undefined;
  /** Its checks done out of the total, once the run planned them. */
  runningChecks?: ChecksDone | undefined;
  /** Sections the API did not answer, with its words. */
  unavailable: string[];
  /** The newest event's seq: the live stream sends the ones after it. */
  streamAfter: number;
  /** The one-time token of the rotate-webhook-secret form (the operator's, or the provider's own). */
  rotationToken: string | undefined;
}

/** What the events panel shows. */
type EventsData = Pick<ProviderPageData, 'slug' | 'events' | 'eventsTotal' | 'streamAfter' | 'running'>;

const base = (slug: string): string => `${CONSOLE_PREFIX}/providers/${seg(slug)}`;

function hidden(session: Session): Html {
  return html`<input type="hidden" name="csrf" value="${session.csrf}">`;
}

function reasonHtml(reason: VisibleReason | undefined): Html {
  if (!reason) return html``;
  return html`<div class="flash error" id="visible-reason"><strong>Why it was sent back</strong> (<code>${reason.reasonCode}</code>)
<p class="text">${reason.reason}</p>${
    reason.requiredChanges.length > 0
      ? html`<p><strong>Required changes</strong></p><ul>${reason.requiredChanges.map((c) => html`<li class="text">${c}</li>`)}</ul>`
      : ''
  }</div>`;
}

function certificationsHtml(session: Session, data: ProviderPageData): Html {
  const rows = data.certifications.map(
    (c) =>
      html`<tr data-id="${c.id}"><td><a href="${base(data.slug)}/certifications/${seg(c.id)}/report">${c.id}</a></td><td>${c.createdAt}</td><td class="status-word">${c.verdict}${c.invalidReason ? ` (does not count: ${c.invalidReason})` : ''}</td><td>${c.summary.pass} passed, ${c.summary.fail} failed, ${c.summary.skip} skipped, ${c.summary.error} errors${c.summary.untested > 0 ? `, ${c.summary.untested} not tested` : ''}</td><td>${c.configVersion ?? ''}</td></tr>`,
  );
  const run = data.running
    ? html`<p id="certify-progress" role="status">${data.running}</p>${
        data.runningChecks
          ? html`<progress id="certify-bar" aria-label="Checks done" max="${data.runningChecks.total}" value="${data.runningChecks.done}"></progress>`
          : html`<progress id="certify-bar" aria-label="Checks done"></progress>`
      }`
    : session.principal.kind === 'provider'
      ? html`<p class="hint">The operator or the provider's account runs certifications on this core (its certify route takes their tokens).</p>`
      : html`<form method="post" action="${base(data.slug)}/certify">${hidden(session)}<button class="primary" type="submit">Run a certification</button></form>`;
  return html`<section class="panel" id="certifications" aria-labelledby="certifications-title"><h2 id="certifications-title">Certifications</h2>
${run}
${rows.length > 0 ? table('Newest first; each opens the full report of that run', ['Run', 'Started', 'Verdict', 'Checks', 'Config version'], rows, 'certifications-table') : html`<p>Not certified yet.</p>`}
${rows.length > 0 ? html`<p><a id="certificate-download" href="${base(data.slug)}/certificate" download>Download the latest certificate</a> (signed; check it with <code>provcert verify</code>)</p>` : ''}
</section>`;
}

function eventsHtml(data: EventsData): Html {
  const rows = data.events.map(
    (e) =>
      html`<tr class="${e.verified ? 'verified' : 'bad'}" data-seq="${e.seq}"><td>${e.seq}</td><td>${e.receivedAt}</td><td>${e.eventType}</td><td>${e.actionId}</td><td>${e.newStatus}</td><td class="status-word">${e.verdictText}</td><td>${e.problem}</td></tr>`,
  );
  return html`<section class="panel" id="webhooks" aria-labelledby="events-title" data-stream="${base(data.slug)}/stream?after=${data.streamAfter}${data.running ? '&certifying=1' : ''}"><h2 id="events-title">Webhook events (<span id="events-count">${data.eventsTotal}</span>)</h2>
<p id="live-status" role="status" class="hint">Reload to see new events (live updates need JavaScript).</p>
<p id="events-empty"${data.events.length > 0 ? html` hidden` : ''}>No webhook event received yet.</p>
${table('Newest first; a rejected request says why', ['#', 'Received', 'Type', 'Action', 'New status', 'Signature', 'Reason'], rows, 'events')}
</section>`;
}

function historyHtml(session: Session, list: HistoryEntry[]): Html {
  const admin = session.principal.kind === 'admin';
  const head = ['When', 'By', 'What', 'From → to', 'Reason', 'Required changes', ...(admin ? ['Internal note'] : [])];
  const rows = list.map(
    (h) =>
      html`<tr><td>${h.at}</td><td>${h.actor}</td><td class="status-word">${h.what}</td><td>${h.from} → ${h.to}</td><td class="text">${h.reasonCode ? `${h.reasonCode}: ` : ''}${h.reason}</td><td class="text">${h.requiredChanges.join('\n')}</td>${admin ? html`<td class="text">${h.internalNote ?? ''}</td>` : ''}</tr>`,
  );
  return html`<section class="panel" id="history" aria-labelledby="history-title"><h2 id="history-title">Review history</h2>
${rows.length > 0 ? table('Oldest first', head, rows, 'history-table') : html`<p>No review decision yet.</p>`}</section>`;
}

export function providerPage(session: Session, data: ProviderPageData, flash?: Flash): string {
  const certified = data.certified === undefined ? 'unknown' : data.certified ? 'yes' : 'no';
  const main = html`<p>Status <span class="status-word" id="provider-status">${data.status}</span> · review <span class="status-word" id="review-status">${data.reviewStatus}</span> · certified <span class="status-word">${certified}</span></p>
${data.unavailable.map((u) => html`<p class="flash error" role="alert">${u}</p>`)}
${reasonHtml(data.reason)}
${session.principal.kind === 'admin' ? decisionForms(session, data.slug, data.reviewStatus, data.moves) : ''}
${session.principal.kind === 'account' ? onboardingForms(session, data.slug, data.reviewStatus, data.moves) : ''}
${certificationsHtml(session, data)}
${eventsHtml(data)}
${historyHtml(session, data.history)}
<section class="panel" id="registration" aria-labelledby="registration-title"><h2 id="registration-title">Registration</h2>
<dl class="fields">${data.registration.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl></section>
${data.rotationToken ? rotationForm(session, data.slug, data.rotationToken) : ''}`;
  return page(data.name || data.slug, main, session, flash);
}

/** Where the secret's section explains the overlap window (the form and the disabled button point at it). */
const OVERLAP_TEXT = html`the current secret keeps verifying this provider's webhooks only for the server's overlap window (serve's <code>webhookSecretOverlap</code> setting, 600 seconds unless serve was started with another value; 0 = not at all), then they are refused (401) until the provider backend signs with the new one`;

/** The confirmation of whoever rotates: the operator hands the secret on, a provider configures it itself. */
const confirmation = (session: Session): string =>
  session.principal.kind === 'admin'
    ? 'I will give the provider backend the new secret'
    : 'I will configure the new secret in my provider backend';

/**
 * The rotation form, the operator's and a provider's own: its own one-time token beside the CSRF token (a
 * re-sent post is refused), and a confirmation box, because the current secret stops working when the
 * overlap window ends.
 */
function rotationForm(session: Session, slug: string, token: string): Html {
  return html`<section class="panel" id="webhook-secret" aria-labelledby="webhook-secret-title"><h2 id="webhook-secret-title">Webhook secret</h2>
<p>The secret is never shown here. Rotating makes a new one and shows it once, on the page that answers, and never again.</p>
<form class="stack" method="post" action="${base(slug)}/rotate-webhook-secret">
${hidden(session)}<input type="hidden" name="once" value="${token}">
<p class="warning" id="rotate-warning"><strong>Warning:</strong> after rotating, ${OVERLAP_TEXT}.</p>
<label class="check"><input type="checkbox" name="confirm" value="yes" required aria-describedby="rotate-warning"> ${confirmation(session)} before the overlap window ends</label>
<div class="actions"><button type="submit">Rotate webhook secret</button></div>
</form></section>`;
}

/**
 * A slug the webhook receiver knows but the registry does not (the admin route answers 404, the events route
 * lists it): one of the providers serve was started with. Its secret comes from serve's configuration, and the rotation
 * route answers 404 for it, so the page says so beside a disabled button rather than offering one that fails.
 */
export function configuredPage(session: Session, data: EventsData, registryAnswer: string): string {
  const main = html`<p>Status <span class="status-word" id="provider-status">configured, not registered</span></p>
<section class="panel" id="webhook-secret" aria-labelledby="webhook-secret-title"><h2 id="webhook-secret-title">Webhook secret</h2>
<p id="rotate-unavailable">This slug is one of the providers serve was started with (its <code>providers</code> setting), not registered: ${registryAnswer}. Its webhook secret comes from serve's configuration (the server's secret, or the variable the config's <code>webhookSecretEnv</code> names), so it cannot be rotated here: the rotation route answers 404 for it. To replace it, change that value and restart <code>provcert serve</code>.</p>
<div class="actions"><button type="button" disabled aria-describedby="rotate-unavailable">Rotate webhook secret</button></div>
</section>
${eventsHtml(data)}`;
  return page(data.slug, main, session);
}
