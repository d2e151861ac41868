import { describe, expect, it } from 'vitest';
import type { ProviderRow } from '../../src/console/data.js';
import { providersPage, queueFirst } from '../../src/console/providers-page.js';
import type { Session } from '../../src/console/session.js';

const session: Session = {
  id: 'id',
  csrf: 'csrf-token',
  principal: { kind: 'admin' },
  token: 'never-rendered-token',
  createdAt: 0,
  lastSeen: 0,
};

const row = (slug: string, reviewStatus: string): ProviderRow => ({
  name: slug,
  slug,
  status: 'DRAFT',
  reviewStatus,
  certified: false,
  lastVerdict: undefined,
  lastCertifiedAt: undefined,
  capabilities: ['METADATA'],
});

describe('the providers page', () => {
  it('puts the review queue first, keeping the API order otherwise', () => {
    const rows = [row('a', 'DRAFT'), row('b', 'PENDING_APPROVAL'), row('c', 'ACTIVE'), row('d', 'PENDING_APPROVAL')];
    expect(queueFirst(rows).map((r) => r.slug)).toEqual(['b', 'd', 'a', 'c']);
  });

  it('pages through a long list keeping the filters, and never renders the token', () => {
    const rows = Array.from({ length: 100 }, (_, i) => row(`p${i}`, 'DRAFT'));
    const page = providersPage(session, { rows, total: 250, offset: 100, limit: 100 }, { reviewStatus: 'DRAFT' });
    expect(page).toContain('href="/console/providers?reviewStatus=DRAFT&#38;offset=0">Previous');
    expect(page).toContain('href="/console/providers?reviewStatus=DRAFT&#38;offset=200">Next');
    expect(page).toContain('101–200 of 250');
    expect(page).not.toContain('never-rendered-token');
  });

  it('shows no pager when everything fits', () => {
    const page = providersPage(session, { rows: [row('a', 'DRAFT')], total: 1, offset: 0, limit: 100 }, {});
    expect(page).not.toContain('aria-label="Pages"');
  });
});
