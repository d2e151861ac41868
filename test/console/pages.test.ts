import { describe, expect, it } from 'vitest';
import type { ProviderRow } from '../../src/console/data.js';
import { configuredPage } from '../../src/console/provider-page.js';
import { providersPage, queueFirst } from '../../src/console/providers-page.js';
import { notRotatedPage, rotatedPage } from '../../src/console/rotation-page.js';
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
  lastPassedAt: undefined,
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

  it('counts one provider in the singular, many in the plural', () => {
    const one = providersPage(session, { rows: [row('a', 'DRAFT')], total: 1, offset: 0, limit: 100 }, {});
    expect(one).toContain('1 provider;');
    const two = providersPage(
      session,
      { rows: [row('a', 'DRAFT'), row('b', 'DRAFT')], total: 2, offset: 0, limit: 100 },
      {},
    );
    expect(two).toContain('2 providers;');
  });

  it('shows when the provider last passed, not when a later FAIL ran', () => {
    const failedSincePassing = { ...row('a', 'DRAFT'), lastVerdict: 'FAIL', lastPassedAt: '2026-11-20T10:00:00.000Z' };
    const neverPassed = { ...row('b', 'DRAFT'), lastVerdict: 'FAIL' };
    const page = providersPage(
      session,
      { rows: [failedSincePassing, neverPassed], total: 2, offset: 0, limit: 100 },
      {},
    );
    expect(page).toContain('<th scope="col">Last passed</th>');
    expect(page).toContain('<td>FAIL</td><td>2026-11-20T10:00:00.000Z</td>');
    expect(page).toContain('<td>FAIL</td><td>never passed</td>');
  });

  it('shows no pager when everything fits', () => {
    const page = providersPage(session, { rows: [row('a', 'DRAFT')], total: 1, offset: 0, limit: 100 }, {});
    expect(page).not.toContain('aria-label="Pages"');
  });
});

describe('the webhook secret pages', () => {
  const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>\u202Eevil"\'';
  const rotation = {
    slug: 'demo-kitchen',
    url: `http://127.0.0.1/${HOSTILE}`,
    secret: 'a'.repeat(64),
    note: HOSTILE,
    rotatedAt: HOSTILE,
    overlapSeconds: 600,
    previousSecretValidUntil: HOSTILE,
  };

  it('shows what the API answered as text, hostile or not, and the secret once', () => {
    const page = rotatedPage(session, HOSTILE, rotation);
    expect(page).not.toMatch(/<script>|<img|\u202E/);
    expect(page).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(page.split('a'.repeat(64))).toHaveLength(2);
    expect(page).not.toContain('never-rendered-token');
  });

  it('says when the previous secret stops verifying: at the window end, or at once without a window', () => {
    expect(rotatedPage(session, 'x', { ...rotation, previousSecretValidUntil: '2026-01-01T00:10:00Z' })).toContain(
      'accepted until <strong id="previous-valid-until">2026-01-01T00:10:00Z</strong> (the 600-second overlap window)',
    );
    expect(rotatedPage(session, 'x', { ...rotation, overlapSeconds: 0 })).toContain('refused from now on');
  });

  it("keeps the API's refusal and a configured slug's explanation inert", () => {
    for (const page of [
      notRotatedPage(session, HOSTILE, HOSTILE),
      configuredPage(
        session,
        { slug: HOSTILE, events: [], eventsTotal: 0, streamAfter: 0, running: undefined },
        HOSTILE,
      ),
    ])
      expect(page).not.toMatch(/<script>|<img|\u202E/);
  });
});
