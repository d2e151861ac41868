import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passingReport } from '../report/sample-reports.js';
import { registration } from '../support/registration.js';
import { expectAccessible, openBrowser, signInWith } from './browser.js';
import { ADMIN, type Harness, startHarness } from './harness.js';

// An account signs in to the console with its own token: it sees its own providers only, certifies and submits
// for review, and is offered no operator decision.

let h: Harness;
let context: BrowserContext;
let page: Page;
let problems: string[] = [];
let accountToken = '';

/** An account created by the operator over the API, and a provider it registers with its own token. */
async function account(name: string, slug: string): Promise<string> {
  const created = await h.api('POST', '/api/v1/admin/accounts', { name });
  expect(created.status).toBe(201);
  const token = (created.json['token'] as { token: string }).token;
  const registered = await h.api(
    'POST',
    '/api/v1/providers/register',
    registration({ slug, name: `${name} Kitchen` }),
    token,
  );
  expect(registered.status).toBe(201);
  return token;
}

beforeAll(async () => {
  h = await startHarness(passingReport);
  accountToken = await account('Mine', 'mine-kitchen');
  await account('Theirs', 'their-kitchen');
  await h.register({ slug: 'operator-kitchen', name: 'Operator Kitchen' });
  ({ context, page, problems } = await openBrowser(h, [404]));
}, 120_000);
afterAll(async () => {
  await context?.close();
  await h?.close();
});

describe('an account in the console', { timeout: 120_000 }, () => {
  it('signs in, sees only its own provider, certifies it, downloads its certificate and submits it for review', async () => {
    await signInWith(page, h, accountToken);
    await expect(page.locator('header, body').first().textContent()).resolves.toContain('account Mine');
    const slugs = await page.locator('#providers tbody tr').evaluateAll((rows) => rows.map((r) => r.textContent ?? ''));
    expect(slugs).toHaveLength(1);
    expect(slugs[0]).toContain('mine-kitchen');

    // Another account's provider, and the operator's, are not found.
    for (const other of ['their-kitchen', 'operator-kitchen']) {
      const answer = await page.goto(`${h.url}/console/providers/${other}`);
      expect(answer?.status(), other).toBe(404);
    }

    await page.goto(`${h.url}/console/providers/mine-kitchen`);
    await expect(page.locator('#decision').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Run a certification' }).click();
    // The form's POST is answered with the provider page before the poll navigates: a navigation started over it
    // would abort its body (400 from the console) on a loaded machine.
    await page.waitForURL(/#certifications$/);
    // The run goes on in the background; the page lists it once it ends.
    await expect
      .poll(
        async () => {
          await page.goto(`${h.url}/console/providers/mine-kitchen`);
          return page.locator('#certifications-table').count();
        },
        { timeout: 60_000 },
      )
      .toBe(1);
    const download = await page.request.get(`${h.url}/console/providers/mine-kitchen/certificate`);
    expect(download.status()).toBe(200);
    expect(download.headers()['content-disposition']).toContain('attachment');
    expect(JSON.parse(await download.text())).toMatchObject({ payloadType: 'application/vnd.in-toto+json' });
    await expect(page.locator('#certificate-download').count()).resolves.toBe(1);

    await page.getByRole('button', { name: 'Submit for review' }).click();
    await expect(page.locator('#review-status').textContent()).resolves.toBe('PENDING_APPROVAL');
    await expect(page.locator('#decision').count()).resolves.toBe(0);
    await expectAccessible(page, 'account provider page');
    // The operator's decision routes of the console refuse an account.
    const decided = await page.request.post(`${h.url}/console/providers/mine-kitchen/decide`, {
      form: { decision: 'APPROVE', confirm: 'APPROVE', csrf: 'x' },
    });
    expect(decided.status()).not.toBe(200);
    expect((await h.api('GET', '/api/v1/admin/providers/mine-kitchen')).json).toMatchObject({
      provider: expect.objectContaining({ reviewStatus: 'PENDING_APPROVAL' }),
    });
    expect(problems).toEqual([]);
    expect(ADMIN).not.toBe(accountToken);
  });
});
