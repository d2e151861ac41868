import type { ProviderRow } from './data.js';
import { type Html, html, seg } from './html.js';
import { CONSOLE_PREFIX, page, table } from './layout.js';
import type { Flash, Session } from './session.js';

/** The filters of the providers page; each maps to the query parameter of GET /admin/providers of the same name. */
export const FILTERS = ['query', 'reviewStatus', 'certified', 'status', 'capability'] as const;
export type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

const REVIEW_STATES = ['PENDING_APPROVAL', 'DRAFT', 'CHANGES_REQUESTED', 'APPROVED', 'ACTIVE', 'REJECTED', 'SUSPENDED'];
const STATUSES = ['DRAFT', 'SANDBOX', 'ACTIVE', 'SUSPENDED', 'DISABLED'];

function select(
  name: string,
  label: string,
  options: readonly (string | [value: string, text: string])[],
  chosen: string | undefined,
): Html {
  return html`<label>${label} <select name="${name}"><option value="">any</option>${options.map((o) => {
    const [value, text] = typeof o === 'string' ? [o, o] : o;
    return html`<option value="${value}"${value === chosen ? html` selected` : ''}>${text}</option>`;
  })}</select></label>`;
}

export interface ProvidersSlice {
  rows: ProviderRow[];
  total: number;
  offset: number;
  limit: number;
}

/** Previous and next links keeping the filters; none when everything fits on one page. */
function pager(slice: ProvidersSlice, filters: Filters): Html {
  if (slice.total <= slice.limit && slice.offset === 0) return html``;
  const link = (offset: number, text: string): Html => {
    const query = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== undefined) as [string, string][]);
    query.set('offset', String(offset));
    return html`<a href="${CONSOLE_PREFIX}/providers?${query.toString()}">${text}</a>`;
  };
  const last = Math.min(slice.offset + slice.rows.length, slice.total);
  return html`<nav class="actions" aria-label="Pages">${slice.offset > 0 ? link(Math.max(0, slice.offset - slice.limit), 'Previous') : ''}<span>${slice.offset + 1}–${last} of ${slice.total}</span>${last < slice.total ? link(slice.offset + slice.limit, 'Next') : ''}</nav>`;
}

const certifiedText = (c: boolean | undefined): string => (c === undefined ? 'unknown' : c ? 'yes' : 'no');

function row(p: ProviderRow): Html {
  return html`<tr data-slug="${p.slug}"><td><a href="${CONSOLE_PREFIX}/providers/${seg(p.slug)}">${p.name || p.slug}</a></td><td><code>${p.slug}</code></td><td class="status-word">${p.status}</td><td class="status-word">${p.reviewStatus}</td><td>${certifiedText(p.certified)}</td><td>${p.lastVerdict ?? 'never certified'}</td><td>${p.lastPassedAt ?? (p.lastVerdict ? 'never passed' : '')}</td></tr>`;
}

/** PENDING_APPROVAL first (the queue), the rest in the API's order. */
export const queueFirst = (rows: ProviderRow[]): ProviderRow[] => [
  ...rows.filter((r) => r.reviewStatus === 'PENDING_APPROVAL'),
  ...rows.filter((r) => r.reviewStatus !== 'PENDING_APPROVAL'),
];

export function providersPage(session: Session, slice: ProvidersSlice, filters: Filters, flash?: Flash): string {
  const { rows, total } = slice;
  const capabilities = [
    ...new Set([...rows.flatMap((r) => r.capabilities), ...(filters.capability ? [filters.capability] : [])]),
  ].sort();
  const pending = rows.filter((r) => r.reviewStatus === 'PENDING_APPROVAL').length;
  const form = html`<form class="filters" method="get" action="${CONSOLE_PREFIX}/providers" role="search" aria-label="Filter providers">
<label>Text <input type="search" name="query" value="${filters.query ?? ''}"></label>
${select('reviewStatus', 'Review status', REVIEW_STATES, filters.reviewStatus)}
${select(
  'certified',
  'Certified',
  [
    ['true', 'yes'],
    ['false', 'no'],
  ],
  filters.certified,
)}
${select('status', 'Status', STATUSES, filters.status)}
${select('capability', 'Capability', capabilities, filters.capability)}
<button type="submit">Filter</button> <a href="${CONSOLE_PREFIX}/providers">Clear</a>
</form>`;
  const list = queueFirst(rows);
  const body =
    list.length === 0
      ? html`<p id="no-providers">No provider matches.</p>`
      : table(
          `${total} ${total === 1 ? 'provider' : 'providers'}; ${pending} on this page waiting for review (listed first)`,
          ['Name', 'Slug', 'Status', 'Review status', 'Certified', 'Last verdict', 'Last passed'],
          list.map(row),
          'providers',
        );
  // An account's list is short and its own: no filters.
  const account = session.principal.kind === 'account';
  return page(
    account ? 'My providers' : 'Providers',
    html`${account ? '' : form}${body}${pager(slice, filters)}`,
    session,
    flash,
  );
}
