import { sendError, sendJson } from '../http-io.js';
import { actionsOfReports, maskPhone, metricsOf, type TestAction, withWebhooks } from '../review/test-actions.js';
import type { RouteRequest } from '../route-table.js';
import { type CoreContext, receivedFor, redactor, viewOf } from './context.js';
import type { StoredProvider } from './registry.js';
import { matchesText, oneOf, page, paging, refusedQuery, time } from './request-input.js';

const SORTS = ['newest', 'oldest', 'total_asc', 'total_desc'] as const;
type Sort = (typeof SORTS)[number];

async function testActions(ctx: CoreContext, p: StoredProvider): Promise<TestAction[]> {
  const records = await ctx.registry.certifications(p.registration.slug);
  return withWebhooks(actionsOfReports(records), await receivedFor(ctx, p.registration.slug));
}

/** minTotal and maxTotal of the dashboard query, or the name of the one that is not a non-negative number. */
function totals(q: URLSearchParams): { min?: number; max?: number } | string {
  const [min, max] = ['minTotal', 'maxTotal'].map((n) => (q.get(n) === null ? undefined : Number(q.get(n))));
  for (const [n, v] of [
    ['minTotal', min],
    ['maxTotal', max],
  ] as const)
    if (v !== undefined && !(Number.isFinite(v) && v >= 0)) return n;
  return { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
}

function byOrder(order: Sort): (a: TestAction, b: TestAction) => number {
  return (a, b) => {
    if (order === 'total_asc') return (a.total ?? 0) - (b.total ?? 0);
    if (order === 'total_desc') return (b.total ?? 0) - (a.total ?? 0);
    const diff = Date.parse(a.createdAt) - Date.parse(b.createdAt);
    return order === 'oldest' ? diff : -diff;
  };
}

/** What the dashboard lists of an action: its phone masked, nothing internal. */
const listed = (a: TestAction) => ({
  publicId: a.publicId,
  status: a.status,
  ...(a.paymentStatus ? { paymentStatus: a.paymentStatus } : {}),
  paymentStatusSource: a.paymentStatusSource,
  ...(a.total !== undefined ? { total: a.total } : {}),
  ...(a.currency ? { currency: a.currency } : {}),
  ...(a.customerName ? { customerName: a.customerName } : {}),
  ...(a.customerPhone ? { customerPhoneMasked: maskPhone(a.customerPhone) } : {}),
});

/** GET /providers/me/dashboard (the provider's own token): its test actions, filtered, sorted and paged. */
export async function dashboard(
  ctx: CoreContext,
  { res, query, granted: p }: RouteRequest<unknown, StoredProvider>,
): Promise<void> {
  const q = query();
  const paged = paging(q, 20, 100, true);
  const sort = oneOf(q, 'sort', SORTS);
  const from = time(q, 'from');
  const to = time(q, 'to');
  if (refusedQuery(res, [paged, sort, from, to])) return;
  if (!paged.ok || !sort.ok || !from.ok || !to.ok) return;
  const total = totals(q);
  if (typeof total === 'string')
    return sendError(res, 400, 'INVALID_ARGUMENT', `${total} must be a non-negative number`);
  const all = await testActions(ctx, p);
  const [text, status, paymentStatus] = [q.get('query'), q.get('status'), q.get('paymentStatus')];
  const filtered = all.filter((a) => {
    const created = Date.parse(a.createdAt);
    return (
      matchesText(text, a.id, a.publicId, a.externalActionId, a.customerName, a.customerPhone) &&
      (!status || a.status === status) &&
      (!paymentStatus || a.paymentStatus === paymentStatus) &&
      (from.value === undefined || created >= from.value) &&
      (to.value === undefined || created <= to.value) &&
      (total.min === undefined || (a.total ?? 0) >= total.min) &&
      (total.max === undefined || (a.total ?? 0) <= total.max)
    );
  });
  filtered.sort(byOrder(sort.value ?? 'newest'));
  const { data, pagination } = page(filtered, paged.limit, paged.offset);
  const { slug, name } = p.registration;
  // The provider's own state, with the partner-visible reason of the last decision (never internal notes).
  const provider = { slug, name, status: p.status, metadata: (await viewOf(ctx, p)).metadata };
  sendJson(res, 200, redactor(ctx).deep({ provider, metrics: metricsOf(all), actions: data.map(listed), pagination }));
}

/** GET /providers/me/actions/{actionId} (the provider's own token): one of its own test actions. */
export async function myAction(
  ctx: CoreContext,
  { res, params: { actionId }, granted: p }: RouteRequest<{ actionId: string }, StoredProvider>,
): Promise<void> {
  const action = (await testActions(ctx, p)).find(
    (a) => a.id === actionId || a.publicId === actionId || a.externalActionId === actionId,
  );
  // Another provider's action is as unknown as one that does not exist (the contract: 404).
  if (!action)
    return sendError(
      res,
      404,
      'NOT_FOUND',
      `no action "${redactor(ctx).text(actionId.slice(0, 200))}" among your test actions`,
    );
  const { customerPhone, ...rest } = action;
  sendJson(
    res,
    200,
    redactor(ctx).deep({ ...rest, ...(customerPhone ? { customerPhoneMasked: maskPhone(customerPhone) } : {}) }),
  );
}
