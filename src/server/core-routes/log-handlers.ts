import type { ServerResponse } from 'node:http';
import { sendError, sendJson, sendText } from '../http-io.js';
import { LOG_KINDS, type LogEvent, operationEvent, toCsv, webhookEvent } from '../review/log-views.js';
import type { RouteRequest } from '../route-table.js';
import { type CoreContext, receivedFor, redactor } from './context.js';
import type { Operator } from './guards.js';
import { oneOf, page, paging, refusedQuery, time } from './request-input.js';

const MAX_EXPORT = 10_000;

/** The webhook events of the operations log: the named slug's, or every registered and configured slug's. */
async function webhookEvents(ctx: CoreContext, slug: string | null): Promise<LogEvent[]> {
  const slugs = slug
    ? [slug]
    : [...ctx.registry.list().map((p) => p.registration.slug), ...(ctx.configuredSlugs?.() ?? [])];
  const events: LogEvent[] = [];
  for (const s of new Set(slugs)) for (const w of await receivedFor(ctx, s)) events.push(webhookEvent(w, s));
  return events;
}

/** The filtered operations log (newest last), or a 400 answered. */
async function logEvents(ctx: CoreContext, q: URLSearchParams, res: ServerResponse): Promise<LogEvent[] | undefined> {
  const since = time(q, 'since');
  const until = time(q, 'until');
  if (refusedQuery(res, [since, until])) return undefined;
  if (!since.ok || !until.ok) return undefined;
  const kinds = (q.get('kind') ?? '').split(',').filter(Boolean);
  const unknown = kinds.filter((k) => !(LOG_KINDS as readonly string[]).includes(k));
  if (unknown.length > 0)
    return void sendError(
      res,
      400,
      'INVALID_ARGUMENT',
      `kind must be among ${LOG_KINDS.join(', ')} (found ${unknown.join(', ')})`,
    );
  const slug = q.get('slug');
  const events: LogEvent[] = ctx.registry.operations.all().map(operationEvent);
  if (kinds.length === 0 || kinds.includes('webhook')) events.push(...(await webhookEvents(ctx, slug)));
  return events
    .filter(
      (e) =>
        (!slug || e.slug === slug) &&
        (kinds.length === 0 || kinds.includes(e.kind)) &&
        (since.value === undefined || Date.parse(e.at) >= since.value) &&
        (until.value === undefined || Date.parse(e.at) <= until.value),
    )
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** GET /admin/logs/events (operator): the operations log, filtered and paged. */
export async function logs(ctx: CoreContext, { res, query }: RouteRequest<unknown, Operator>): Promise<void> {
  const q = query();
  const paged = paging(q, 100, 1_000);
  if (!paged.ok) return sendError(res, 400, 'INVALID_ARGUMENT', paged.message);
  const events = await logEvents(ctx, q, res);
  if (events) sendJson(res, 200, redactor(ctx).deep(page(events, paged.limit, paged.offset)));
}

/** GET /admin/logs/export (operator): the newest MAX_EXPORT log events as a JSON or CSV attachment. */
export async function exportLogs(ctx: CoreContext, { res, query }: RouteRequest<unknown, Operator>): Promise<void> {
  const q = query();
  const format = oneOf(q, 'format', ['json', 'csv'] as const);
  if (!format.ok) return sendError(res, 400, 'INVALID_ARGUMENT', format.message);
  const events = await logEvents(ctx, q, res);
  if (!events) return;
  const masked = redactor(ctx).deep(events.slice(-MAX_EXPORT));
  const stamp = ctx.now().toISOString().replace(/[:.]/g, '-');
  if (format.value === 'csv') {
    const csv = toCsv(masked);
    if (res.headersSent) return;
    res.writeHead(200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-length': Buffer.byteLength(csv),
      'content-disposition': `attachment; filename="provcert-events-${stamp}.csv"`,
    });
    res.end(csv);
    return;
  }
  sendText(res, 200, JSON.stringify({ data: masked, total: masked.length }), {
    'content-disposition': `attachment; filename="provcert-events-${stamp}.json"`,
  });
}
