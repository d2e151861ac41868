import type { ServerResponse } from 'node:http';
import type { ReceivedWebhook } from '../../model/webhooks.js';
import { Redactor } from '../../util/redact.js';
import { decodeCursor, START_CURSOR } from '../event-pages.js';
import { sendError, sendJson, sendText } from '../http-io.js';
import { parseDecision } from '../review/decision-input.js';
import {
  illegalTransitionMessage,
  PROVIDER_STATUSES,
  REVIEW_STATES,
  type ReviewState,
  type Trigger,
} from '../review/lifecycle.js';
import { LOG_KINDS, type LogEvent, operationEvent, toCsv, webhookEvent } from '../review/log-views.js';
import { bearerToken } from '../review/provider-token.js';
import { actionsOfReports, maskPhone, metricsOf, type TestAction, withWebhooks } from '../review/test-actions.js';
import type { RouteRequest } from '../route-table.js';
import type { CoreRoutesDeps } from './deps.js';
import { readJsonBody } from './handlers.js';
import type { StoredProvider } from './registry.js';
import { certificationSummaryView, providerView } from './views.js';

type Outcome<T> = ({ ok: true } & T) | { ok: false; message: string };
type SlugRequest = RouteRequest<{ slug: string }>;

/** Webhook requests read per provider for the dashboard and the operations log (the newest beyond it are left out). */
const MAX_EVENTS_READ = 10_000;
const MAX_EXPORT = 10_000;

/** `limit` and `offset` of a listing, or why they are refused. */
function paging(
  q: URLSearchParams,
  defaultLimit: number,
  maxLimit: number,
  cap = false,
): Outcome<{ limit: number; offset: number }> {
  const rawLimit = q.get('limit');
  const rawOffset = q.get('offset');
  let limit = rawLimit === null ? defaultLimit : Number(rawLimit);
  const offset = rawOffset === null ? 0 : Number(rawOffset);
  if (!Number.isInteger(limit) || limit < 1 || (!cap && limit > maxLimit))
    return { ok: false, message: `limit must be a whole number from 1 to ${maxLimit}` };
  if (!Number.isInteger(offset) || offset < 0) return { ok: false, message: 'offset must be a whole number from 0' };
  if (cap) limit = Math.min(limit, maxLimit);
  return { ok: true, limit, offset };
}

function page<T>(items: readonly T[], limit: number, offset: number) {
  return {
    data: items.slice(offset, offset + limit),
    total: items.length,
    pagination: { total: items.length, limit, offset, hasMore: offset + limit < items.length },
  };
}

function oneOf<T extends string>(q: URLSearchParams, name: string, allowed: readonly T[]): Outcome<{ value?: T }> {
  const raw = q.get(name);
  if (raw === null || raw === '') return { ok: true };
  if ((allowed as readonly string[]).includes(raw)) return { ok: true, value: raw as T };
  return { ok: false, message: `${name} must be one of ${allowed.join(', ')} (found ${JSON.stringify(raw)})` };
}

function time(q: URLSearchParams, name: string): Outcome<{ value?: number }> {
  const raw = q.get(name);
  if (raw === null || raw === '') return { ok: true };
  const value = Date.parse(raw);
  return Number.isNaN(value)
    ? { ok: false, message: `${name} must be an ISO 8601 date or timestamp (found ${JSON.stringify(raw)})` }
    : { ok: true, value };
}

const matchesText = (needle: string | null, ...haystack: (string | undefined)[]): boolean =>
  needle === null || needle === '' || haystack.some((h) => h?.toLowerCase().includes(needle.toLowerCase()));

/** The review desk: decisions, reopen, listings, discovery, the provider's dashboard and the operations log. */
export function reviewDeskHandlers(deps: CoreRoutesDeps) {
  const now = deps.now ?? ((): Date => new Date());
  const webhookUrl = (slug: string): string => deps.core()?.urlFor(slug) ?? '';

  /** Every secret this server knows: answers of the review desk are masked with all of them. */
  const redactor = (): Redactor =>
    new Redactor([
      deps.adminToken,
      ...(deps.extraSecrets?.() ?? []),
      ...deps.registry.providerTokens(),
      ...deps.registry.list().flatMap((p) => {
        const ref = p.registration.credential;
        return [
          p.webhookSecret,
          p.previousWebhookSecret?.secret,
          p.fingerprintKey,
          'env' in ref ? deps.env[ref.env] : undefined,
        ];
      }),
    ]);

  const view = async (p: StoredProvider) =>
    providerView(p, webhookUrl(p.registration.slug), await deps.registry.isCertified(p));

  async function receivedFor(slug: string): Promise<ReceivedWebhook[]> {
    const core = deps.core();
    if (!core) return [];
    const out: ReceivedWebhook[] = [];
    let cursor = START_CURSOR;
    while (out.length < MAX_EVENTS_READ) {
      const found = await core.events(slug, cursor, 1_000);
      out.push(...found.items);
      if (!found.nextCursor) break;
      const next = decodeCursor(found.nextCursor);
      if (!next) break;
      cursor = next;
    }
    return out;
  }

  function answerTransition(
    res: ServerResponse,
    slug: string,
    trigger: Trigger,
    outcome: Awaited<ReturnType<CoreRoutesDeps['registry']['transition']>>,
  ): void {
    if (outcome.kind === 'not-found') return sendError(res, 404, 'NOT_FOUND', `no provider "${slug}" is registered`);
    if (outcome.kind === 'illegal')
      return sendError(res, 409, 'CONFLICT', illegalTransitionMessage(slug, trigger, outcome.current));
    if (outcome.kind === 'guard-failed') return sendError(res, 409, 'CONFLICT', outcome.message);
    deps.log?.(`provider ${slug}: ${trigger} ${outcome.entry.from} → ${outcome.entry.to}`);
    sendJson(res, 200, {
      slug,
      trigger,
      from: outcome.entry.from,
      to: outcome.entry.to,
      status: outcome.provider.status,
      at: outcome.entry.at,
      historySeq: outcome.entry.seq,
    });
  }

  async function review({ req, res, params: { slug } }: SlugRequest): Promise<void> {
    const body = await readJsonBody(req, res);
    if (!body.ok) return;
    const parsed = parseDecision(body.value);
    if (!parsed.ok)
      return sendError(res, 400, 'INVALID_ARGUMENT', `invalid review decision: ${parsed.problems.join('; ')}`);
    const { decision, ...details } = parsed.value;
    const outcome = await deps.registry.transition(slug, decision, { actor: 'admin', ...details }, now());
    answerTransition(res, slug, decision, outcome);
  }

  async function reopen({ req, res, params: { slug } }: SlugRequest): Promise<void> {
    const body = await readJsonBody(req, res);
    if (!body.ok) return;
    const note = (body.value as { internalNote?: unknown } | null)?.internalNote;
    if (note !== undefined && (typeof note !== 'string' || note.length > 4_000))
      return sendError(res, 400, 'INVALID_ARGUMENT', 'internalNote must be a text of at most 4000 characters');
    const outcome = await deps.registry.transition(
      slug,
      'REOPEN',
      { actor: 'admin', ...(typeof note === 'string' ? { internalNote: note } : {}) },
      now(),
    );
    answerTransition(res, slug, 'REOPEN', outcome);
  }

  async function adminProviders({ res, query }: RouteRequest<unknown>): Promise<void> {
    const q = query();
    const paged = paging(q, 20, 100);
    const reviewStatus = oneOf<ReviewState>(q, 'reviewStatus', REVIEW_STATES);
    const status = oneOf(q, 'status', PROVIDER_STATUSES);
    const certified = oneOf(q, 'certified', ['true', 'false'] as const);
    const from = time(q, 'registeredFrom');
    const to = time(q, 'registeredTo');
    for (const o of [paged, reviewStatus, status, certified, from, to])
      if (!o.ok) return sendError(res, 400, 'INVALID_ARGUMENT', o.message);
    if (!paged.ok || !reviewStatus.ok || !status.ok || !certified.ok || !from.ok || !to.ok) return;
    const [capability, type, text, category, geography] = ['capability', 'type', 'query', 'category', 'geography'].map(
      (n) => q.get(n),
    );
    const views = [];
    for (const p of deps.registry.list()) {
      const r = p.registration;
      if (reviewStatus.value && p.reviewStatus !== reviewStatus.value) continue;
      if (status.value && p.status !== status.value) continue;
      if (capability && !r.capabilities.includes(capability)) continue;
      if (type && r.type !== type.toUpperCase()) continue;
      if (category && r.category !== category) continue;
      if (geography && !r.geography.some((g) => g.toLowerCase() === geography.toLowerCase())) continue;
      const created = Date.parse(p.createdAt);
      if ((from.value !== undefined && created < from.value) || (to.value !== undefined && created > to.value))
        continue;
      if (!matchesText(text ?? null, r.name, r.slug, r.category, r.baseUrl)) continue;
      const v = await view(p);
      if (certified.value && String(v.metadata.isCertified) !== certified.value) continue;
      views.push(v);
    }
    sendJson(res, 200, redactor().deep(page(views, paged.limit, paged.offset)));
  }

  /** Admin only: the provider, its certifications and its review history with internal notes. */
  async function adminProvider({ res, params: { slug } }: SlugRequest): Promise<void> {
    const p = deps.registry.get(slug);
    if (!p) return sendError(res, 404, 'NOT_FOUND', `no provider "${slug}" is registered`);
    const certifications = (await deps.registry.certifications(slug)).map((r) => certificationSummaryView(r, p));
    const history = deps.registry.operations.history(slug);
    sendJson(res, 200, redactor().deep({ provider: await view(p), certifications, history }));
  }

  async function find({ res, query }: RouteRequest<unknown>): Promise<void> {
    const q = query();
    const paged = paging(q, 20, 100);
    if (!paged.ok) return sendError(res, 400, 'INVALID_ARGUMENT', paged.message);
    const [category, capability, geography, text] = ['category', 'capability', 'geography', 'query'].map((n) =>
      q.get(n),
    );
    const found = deps.registry
      .list()
      .filter((p) => p.status === 'ACTIVE' && p.reviewStatus === 'ACTIVE')
      .map((p) => p.registration)
      .filter(
        (r) =>
          (!category || r.category === category) &&
          (!capability || r.capabilities.includes(capability)) &&
          (!geography || r.geography.some((g) => g.toLowerCase() === geography.toLowerCase())) &&
          matchesText(text ?? null, r.name, r.slug, r.category),
      )
      // Public fields only: never review history, notes, addresses or credential references.
      .map((r) => ({
        name: r.name,
        slug: r.slug,
        type: r.type,
        category: r.category,
        geography: r.geography,
        capabilities: r.capabilities,
        ...(r.fulfillment ? { fulfillment: r.fulfillment } : {}),
      }));
    sendJson(res, 200, redactor().deep(page(found, paged.limit, paged.offset)));
  }

  /** The provider the request's own token belongs to (the guard has checked it). */
  const me = (req: RouteRequest<unknown>['req']): StoredProvider | undefined => {
    const token = bearerToken(req);
    return token === undefined ? undefined : deps.registry.byToken(token);
  };

  async function testActions(p: StoredProvider): Promise<TestAction[]> {
    const records = await deps.registry.certifications(p.registration.slug);
    return withWebhooks(actionsOfReports(records), await receivedFor(p.registration.slug));
  }

  async function dashboard({ req, res, query }: RouteRequest<unknown>): Promise<void> {
    const p = me(req);
    if (!p) return sendError(res, 401, 'UNAUTHORIZED', 'missing or wrong provider token');
    const q = query();
    const paged = paging(q, 20, 100, true);
    const sort = oneOf(q, 'sort', ['newest', 'oldest', 'total_asc', 'total_desc'] as const);
    const from = time(q, 'from');
    const to = time(q, 'to');
    for (const o of [paged, sort, from, to]) if (!o.ok) return sendError(res, 400, 'INVALID_ARGUMENT', o.message);
    if (!paged.ok || !sort.ok || !from.ok || !to.ok) return;
    const [minTotal, maxTotal] = ['minTotal', 'maxTotal'].map((n) =>
      q.get(n) === null ? undefined : Number(q.get(n)),
    );
    for (const [n, v] of [
      ['minTotal', minTotal],
      ['maxTotal', maxTotal],
    ] as const)
      if (v !== undefined && !(Number.isFinite(v) && v >= 0))
        return sendError(res, 400, 'INVALID_ARGUMENT', `${n} must be a non-negative number`);
    const all = await testActions(p);
    const text = q.get('query');
    const status = q.get('status');
    const paymentStatus = q.get('paymentStatus');
    const filtered = all.filter((a) => {
      const created = Date.parse(a.createdAt);
      return (
        matchesText(text, a.id, a.publicId, a.externalActionId, a.customerName, a.customerPhone) &&
        (!status || a.status === status) &&
        (!paymentStatus || a.paymentStatus === paymentStatus) &&
        (from.value === undefined || created >= from.value) &&
        (to.value === undefined || created <= to.value) &&
        (minTotal === undefined || (a.total ?? 0) >= minTotal) &&
        (maxTotal === undefined || (a.total ?? 0) <= maxTotal)
      );
    });
    const order = sort.value ?? 'newest';
    filtered.sort((a, b) => {
      if (order === 'total_asc') return (a.total ?? 0) - (b.total ?? 0);
      if (order === 'total_desc') return (b.total ?? 0) - (a.total ?? 0);
      const diff = Date.parse(a.createdAt) - Date.parse(b.createdAt);
      return order === 'oldest' ? diff : -diff;
    });
    const { data, pagination } = page(filtered, paged.limit, paged.offset);
    sendJson(
      res,
      200,
      redactor().deep({
        // The provider's own state, with the partner-visible reason of the last decision (never internal notes).
        provider: {
          slug: p.registration.slug,
          name: p.registration.name,
          status: p.status,
          metadata: (await view(p)).metadata,
        },
        metrics: metricsOf(all),
        actions: data.map((a) => ({
          publicId: a.publicId,
          status: a.status,
          ...(a.paymentStatus ? { paymentStatus: a.paymentStatus } : {}),
          paymentStatusSource: a.paymentStatusSource,
          ...(a.total !== undefined ? { total: a.total } : {}),
          ...(a.currency ? { currency: a.currency } : {}),
          ...(a.customerName ? { customerName: a.customerName } : {}),
          ...(a.customerPhone ? { customerPhoneMasked: maskPhone(a.customerPhone) } : {}),
        })),
        pagination,
      }),
    );
  }

  async function myAction({ req, res, params: { actionId } }: RouteRequest<{ actionId: string }>): Promise<void> {
    const p = me(req);
    if (!p) return sendError(res, 401, 'UNAUTHORIZED', 'missing or wrong provider token');
    const action = (await testActions(p)).find(
      (a) => a.id === actionId || a.publicId === actionId || a.externalActionId === actionId,
    );
    // Another provider's action is as unknown as one that does not exist (the contract: 404).
    if (!action)
      return sendError(
        res,
        404,
        'NOT_FOUND',
        `no action "${redactor().text(actionId.slice(0, 200))}" among your test actions`,
      );
    const { customerPhone, ...rest } = action;
    sendJson(
      res,
      200,
      redactor().deep({ ...rest, ...(customerPhone ? { customerPhoneMasked: maskPhone(customerPhone) } : {}) }),
    );
  }

  /** The filtered operations log (newest last), or a 400 answered. */
  async function logEvents(q: URLSearchParams, res: ServerResponse): Promise<LogEvent[] | undefined> {
    const since = time(q, 'since');
    const until = time(q, 'until');
    for (const o of [since, until]) if (!o.ok) return void sendError(res, 400, 'INVALID_ARGUMENT', o.message);
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
    const events: LogEvent[] = deps.registry.operations.all().map(operationEvent);
    if (kinds.length === 0 || kinds.includes('webhook')) {
      const slugs = slug
        ? [slug]
        : [...deps.registry.list().map((p) => p.registration.slug), ...(deps.configuredSlugs?.() ?? [])];
      for (const s of new Set(slugs)) for (const w of await receivedFor(s)) events.push(webhookEvent(w, s));
    }
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

  async function logs({ res, query }: RouteRequest<unknown>): Promise<void> {
    const q = query();
    const paged = paging(q, 100, 1_000);
    if (!paged.ok) return sendError(res, 400, 'INVALID_ARGUMENT', paged.message);
    const events = await logEvents(q, res);
    if (events) sendJson(res, 200, redactor().deep(page(events, paged.limit, paged.offset)));
  }

  async function exportLogs({ res, query }: RouteRequest<unknown>): Promise<void> {
    const q = query();
    const format = oneOf(q, 'format', ['json', 'csv'] as const);
    if (!format.ok) return sendError(res, 400, 'INVALID_ARGUMENT', format.message);
    const events = await logEvents(q, res);
    if (!events) return;
    const masked = redactor().deep(events.slice(-MAX_EXPORT));
    const stamp = now().toISOString().replace(/[:.]/g, '-');
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

  return { review, reopen, adminProviders, adminProvider, find, dashboard, myAction, logs, exportLogs };
}
