import { sendError, sendJson } from '../http-io.js';
import { PROVIDER_STATUSES, REVIEW_STATES, type ReviewState } from '../review/lifecycle.js';
import type { RouteRequest } from '../route-table.js';
import { type CoreContext, redactor, type SlugRequest, viewOf } from './context.js';
import type { Operator } from './guards.js';
import type { Registration } from './registration.js';
import type { StoredProvider } from './registry.js';
import { matchesText, oneOf, page, paging, refusedQuery, time } from './request-input.js';
import { certificationSummaryView, type ProviderView } from './views.js';

/** The admin listing's filters over the registration and state (certification is filtered on the view). */
function listingFilter(q: URLSearchParams, reviewStatus?: ReviewState, status?: string, from?: number, to?: number) {
  const [capability, type, text, category, geography] = ['capability', 'type', 'query', 'category', 'geography'].map(
    (n) => q.get(n),
  );
  return (p: StoredProvider): boolean => {
    const r = p.registration;
    const created = Date.parse(p.createdAt);
    return (
      (!reviewStatus || p.reviewStatus === reviewStatus) &&
      (!status || p.status === status) &&
      (!capability || r.capabilities.includes(capability)) &&
      (!type || r.type === type.toUpperCase()) &&
      (!category || r.category === category) &&
      (!geography || r.geography.some((g) => g.toLowerCase() === geography.toLowerCase())) &&
      (from === undefined || created >= from) &&
      (to === undefined || created <= to) &&
      matchesText(text ?? null, r.name, r.slug, r.category, r.baseUrl)
    );
  };
}

/** GET /admin/providers (operator): every registered provider, filtered and paged. */
export async function adminProviders(ctx: CoreContext, { res, query }: RouteRequest<unknown, Operator>): Promise<void> {
  const q = query();
  const paged = paging(q, 20, 100);
  const reviewStatus = oneOf<ReviewState>(q, 'reviewStatus', REVIEW_STATES);
  const status = oneOf(q, 'status', PROVIDER_STATUSES);
  const certified = oneOf(q, 'certified', ['true', 'false'] as const);
  const from = time(q, 'registeredFrom');
  const to = time(q, 'registeredTo');
  if (refusedQuery(res, [paged, reviewStatus, status, certified, from, to])) return;
  if (!paged.ok || !reviewStatus.ok || !status.ok || !certified.ok || !from.ok || !to.ok) return;
  const matches = listingFilter(q, reviewStatus.value, status.value, from.value, to.value);
  const views: ProviderView[] = [];
  for (const p of ctx.registry.list().filter(matches)) {
    const v = await viewOf(ctx, p);
    if (certified.value && String(v.metadata.isCertified) !== certified.value) continue;
    views.push(v);
  }
  sendJson(res, 200, redactor(ctx).deep(page(views, paged.limit, paged.offset)));
}

/** GET /admin/providers/{slug} (operator): the provider, its certifications and its review history with internal notes. */
export async function adminProvider(ctx: CoreContext, { res, params: { slug } }: SlugRequest<Operator>): Promise<void> {
  const p = ctx.registry.get(slug);
  if (!p) return sendError(res, 404, 'NOT_FOUND', `no provider "${slug}" is registered`);
  const certifications = (await ctx.registry.certifications(slug)).map((r) => certificationSummaryView(r, p));
  const history = ctx.registry.operations.history(slug);
  const certifying = ctx.progress.of(slug);
  sendJson(
    res,
    200,
    redactor(ctx).deep({
      provider: await viewOf(ctx, p),
      certifications,
      history,
      ...(certifying ? { certifying } : {}),
    }),
  );
}

/** Public fields only: never review history, notes, addresses or credential references. */
const publicFields = (r: Registration) => ({
  name: r.name,
  slug: r.slug,
  type: r.type,
  category: r.category,
  geography: r.geography,
  capabilities: r.capabilities,
  ...(r.fulfillment ? { fulfillment: r.fulfillment } : {}),
});

/** GET /providers/find (public): the active providers, filtered and paged. */
export function find(ctx: CoreContext, { res, query }: RouteRequest<unknown>): void {
  const q = query();
  const paged = paging(q, 20, 100);
  if (!paged.ok) return sendError(res, 400, 'INVALID_ARGUMENT', paged.message);
  const [category, capability, geography, text] = ['category', 'capability', 'geography', 'query'].map((n) => q.get(n));
  const found = ctx.registry
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
    .map(publicFields);
  sendJson(res, 200, redactor(ctx).deep(page(found, paged.limit, paged.offset)));
}
