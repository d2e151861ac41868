import type { ProviderListView } from '../server/core-routes/views.js';
import type { RouteRequest } from '../server/route-table.js';
import { records } from '../util/json.js';
import { API, type ApiAnswer, apiError } from './api.js';
import { type ConsoleContext, expired, principalHome, takeFlash } from './context.js';
import { answerAs, certificationRows, type ProviderRow, providerRow } from './data.js';
import { FILTERS, type Filters, providersPage } from './providers-page.js';
import { redirect, sendPage } from './respond.js';
import type { Session } from './session.js';

/** Providers per page of the table (the API's largest page). */
const PROVIDERS_PAGE = 100;

/** The filters the query names, and the API query that applies them to one page from `offset`. */
function listQuery(q: URLSearchParams): { filters: Filters; query: URLSearchParams; from: number } {
  const filters: Filters = {};
  const query = new URLSearchParams();
  for (const name of FILTERS) {
    const value = q.get(name)?.trim();
    if (value) {
      filters[name] = value;
      query.set(name, value);
    }
  }
  const offset = Number(q.get('offset') ?? '0');
  const from = Number.isSafeInteger(offset) && offset > 0 ? offset : 0;
  query.set('limit', String(PROVIDERS_PAGE));
  query.set('offset', String(from));
  return { filters, query, from };
}

/** The list answers no certification: the newest comes from the provider's certifications route. */
async function withLastCertification(ctx: ConsoleContext, token: string, p: ProviderRow): Promise<ProviderRow> {
  const answer = await ctx.api.call(token, 'GET', API.certifications(p.slug));
  const rows = answer.status === 200 ? certificationRows(answer.body) : [];
  const [latest] = rows;
  const passed = rows.find((c) => c.verdict === 'PASS');
  return latest ? { ...p, lastVerdict: latest.verdict, lastPassedAt: passed?.createdAt } : p;
}

/** A listing answer's rows (each with its newest certification) and the flash to show above them. */
async function listedRows(
  ctx: ConsoleContext,
  session: Session,
  answer: ApiAnswer,
): Promise<{ rows: ProviderRow[]; flash: ReturnType<typeof takeFlash> }> {
  const flash = answer.status === 200 ? takeFlash(session) : { kind: 'error' as const, text: apiError(answer) };
  const rows = await Promise.all(
    records(answerAs<ProviderListView>(answer.body).data)
      .map(providerRow)
      .map((p) => withLastCertification(ctx, session.token, p)),
  );
  return { rows, flash };
}

/** An account's table: its own providers only (the API's account route answers no other). */
async function accountProviders(ctx: ConsoleContext, r: RouteRequest<unknown, Session>): Promise<void> {
  const session = r.granted;
  const answer = await ctx.api.call(session.token, 'GET', API.accountProviders);
  if (answer.status === 401) return expired(ctx, r.res, session);
  const { rows, flash } = await listedRows(ctx, session, answer);
  sendPage(r.res, 200, providersPage(session, { rows, total: rows.length, offset: 0, limit: rows.length }, {}, flash));
}

/** GET /console/providers: the operator's table of providers, an account's own (a provider session goes to its page). */
export async function providers(ctx: ConsoleContext, r: RouteRequest<unknown, Session>): Promise<void> {
  const session = r.granted;
  if (session.principal.kind === 'account') return accountProviders(ctx, r);
  if (session.principal.kind !== 'admin') return redirect(r.res, principalHome(session.principal));
  const { filters, query, from } = listQuery(r.query());
  const answer = await ctx.api.call(session.token, 'GET', API.adminProviders(query));
  if (answer.status === 401) return expired(ctx, r.res, session);
  const { rows, flash } = await listedRows(ctx, session, answer);
  const listed = answerAs<ProviderListView>(answer.body).total;
  const total = typeof listed === 'number' ? listed : rows.length;
  sendPage(r.res, 200, providersPage(session, { rows, total, offset: from, limit: PROVIDERS_PAGE }, filters, flash));
}
