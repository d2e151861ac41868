import type { RunReport } from '../model/report.js';
import { renderHtml } from '../report/html.js';
import { HTML_SCRIPT, HTML_STYLE } from '../report/html-style.js';
import type { CertificationView, EventListView } from '../server/core-routes/views.js';
import type { RouteRequest } from '../server/route-table.js';
import { isRecord, records, str } from '../util/json.js';
import { API, type ApiAnswer, apiError } from './api.js';
import { cspHash } from './assets.js';
import { type ConsoleContext, expired, notFound, readToken, takeFlash } from './context.js';
import {
  allowedMoves,
  answerAs,
  certificationRows,
  eventRow,
  history,
  providerOf,
  providerRow,
  registrationFields,
  visibleReason,
} from './data.js';
import type { Viewer } from './guards.js';
import { configuredPage, providerPage } from './provider-page.js';
import { sendPage } from './respond.js';

/** Events shown on a provider page at first (newest); the live stream adds the rest. */
const EVENTS_SHOWN = 200;
const MAX_EVENT_PAGES = 20;

const REPORT_CSP = `default-src 'none'; style-src ${cspHash(HTML_STYLE)}; script-src ${cspHash(HTML_SCRIPT)}; img-src data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`;

/** All listed events (up to a bound), newest first. */
async function eventsOf(
  ctx: ConsoleContext,
  token: string,
  slug: string,
): Promise<{ answer: ApiAnswer; items: Record<string, unknown>[]; total: number }> {
  const items: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  let answer: ApiAnswer = { status: 0, body: {} };
  for (let pageNo = 0; pageNo < MAX_EVENT_PAGES; pageNo++) {
    answer = await ctx.api.call(token, 'GET', API.events(slug, cursor));
    if (answer.status !== 200) break;
    const list = answerAs<EventListView>(answer.body);
    items.push(...records(list.data));
    cursor = str(list.nextCursor);
    if (!cursor) break;
  }
  const listed = answerAs<EventListView>(answer.body).total;
  const total = typeof listed === 'number' ? listed : items.length;
  return { answer, items: items.reverse(), total };
}

/** GET /console/providers/{slug}: registration, review, certifications and events of one provider. */
export async function provider(ctx: ConsoleContext, r: RouteRequest<{ slug: string }, Viewer>): Promise<void> {
  const { session, slug } = r.granted;
  const admin = session.principal.kind === 'admin';
  const token = readToken(ctx, session);
  const [detail, events] = await Promise.all([
    ctx.api.call(token, 'GET', API.adminProvider(slug)),
    eventsOf(ctx, token, slug),
  ]);
  if (detail.status === 401 && admin) return expired(ctx, r.res, session);
  const newestSeq = events.items.length > 0 ? eventRow(events.items[0] as Record<string, unknown>).seq : 0;
  const eventsData = {
    slug,
    events: events.items.slice(0, EVENTS_SHOWN).map(eventRow),
    eventsTotal: events.total,
    streamAfter: newestSeq,
    running: ctx.runner.progress(slug),
    runningChecks: ctx.runner.checks(slug),
  };
  // Unknown to the registry yet listed by the events route: a slug serve was started with (its settings' providers).
  if (detail.status === 404 && events.answer.status === 200 && admin)
    return sendPage(r.res, 200, configuredPage(session, eventsData, apiError(detail)));
  if (detail.status === 404) return notFound(r.res, session, `No provider "${slug}" is registered.`);
  const unavailable: string[] = [];
  if (detail.status !== 200) unavailable.push(`Registration: ${apiError(detail)}`);
  if (events.answer.status !== 200) unavailable.push(`Webhook events: ${apiError(events.answer)}`);
  const p = providerOf(detail.body);
  const row = providerRow(p);
  const data = {
    ...eventsData,
    name: row.name,
    status: row.status,
    reviewStatus: row.reviewStatus,
    certified: row.certified,
    registration: registrationFields(p),
    reason: visibleReason(p),
    moves: allowedMoves(p),
    certifications: certificationRows(detail.body),
    // Internal notes are the operators' only.
    history: history(detail.body, admin),
    unavailable,
    // The operator rotates any provider, a provider session its own (the visibility guard); only a provider the
    // registry answered for can be rotated.
    // An account does not rotate (its provider's backend holds the secret; the operator or the provider token does).
    rotationToken:
      detail.status === 200 && session.principal.kind !== 'account'
        ? ctx.rotationForms.issue(session, slug)
        : undefined,
  };
  sendPage(r.res, 200, providerPage(session, data, takeFlash(session)));
}

/** GET /console/providers/{slug}/certifications/{id}/report: the reporter's own HTML page of one certification. */
export async function report(
  ctx: ConsoleContext,
  r: RouteRequest<{ slug: string; id: string }, Viewer>,
): Promise<void> {
  const { session, slug } = r.granted;
  const id = r.params.id;
  const answer = await ctx.api.call(readToken(ctx, session), 'GET', API.certification(slug, id));
  if (answer.status === 401) return expired(ctx, r.res, session);
  const { report } = answerAs<CertificationView>(answer.body);
  if (answer.status !== 200 || !isRecord(report))
    return notFound(r.res, session, `No report for certification "${id}" of ${slug}: ${apiError(answer)}`);
  // As `provcert report --html` writes it; its inline style and script are allowed by hash.
  sendPage(r.res, 200, renderHtml(report as unknown as RunReport), {}, REPORT_CSP);
}
