import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failingReport, INJECTED_SCRIPT, passingReport } from '../report/sample-reports.js';
import { ARTIFACTS, expectAccessible, openBrowser, shot, signInWith } from './browser.js';
import { ADMIN, type Harness, startHarness } from './harness.js';

/** Provider-supplied text that tries to become markup, a link, or to reorder or hide what is shown. */
const HOSTILE_NAME =
  '<script>window.__pwned = "name"</script><a href="javascript:window.__pwned=1">x</a>\u202Egnp.exe\u0007';
const HOSTILE_REASON = 'Your <img src=x onerror="window.__pwned=2"> javascript:alert(1) \u202Ereversed\u001b[2J text';
const HOSTILE_EVENT_TYPE = '<script>window.__pwned="event"</script>\u2066isolate';

let h: Harness;
let context: BrowserContext;
let page: Page;
let demoSecret = '';
let demoToken = '';
let offOrigin: string[] = [];
let problems: string[] = [];

const signIn = (token: string): Promise<void> => signInWith(page, h, token);

async function decide(
  decision: string,
  reason: string,
  extra: { changes?: string; note?: string } = {},
): Promise<void> {
  const form = page.locator('form[data-reason-check]');
  await form.getByLabel('Decision').selectOption(decision);
  await form.getByLabel('Reason code').fill('INTEGRATION_INCOMPLETE');
  await form.getByLabel(/^Reason \(shown/).fill(reason);
  await form.getByLabel(/Required changes/).fill(extra.changes ?? '');
  await form.getByLabel(/Internal note/).fill(extra.note ?? '');
  await form.getByRole('button', { name: 'Send decision' }).click();
  await page.waitForLoadState('load');
}

/** Approve, Activate or Reopen: its confirmation box ticked, then its button. */
async function confirmed(trigger: string, button: string): Promise<void> {
  const form = page.locator(`form[data-move="${trigger}"]`);
  await form.getByRole('checkbox').check();
  await form.getByRole('button', { name: button }).click();
  await page.waitForLoadState('load');
}

const reviewStatus = (): Promise<string | null> => page.locator('#review-status').textContent();
const flash = (): Promise<string | null> => page.locator('.flash').first().textContent();

beforeAll(async () => {
  h = await startHarness(passingReport);
  h.reports.set('hostile', failingReport);
  const demo = await h.register({});
  demoSecret = demo.secret;
  demoToken = demo.token;
  await h.register({
    slug: 'quiet-bakery',
    name: 'Quiet Bakery',
    capabilities: ['METADATA', 'HEALTH', 'CATALOG', 'SEARCH'],
  });
  await h.register({ slug: 'hostile', name: 'Hostile Reports' });
  // The bakery is certified and waits for review: the queue.
  expect((await h.api('POST', '/api/v1/providers/quiet-bakery/certify')).status).toBe(200);
  expect((await h.api('POST', '/api/v1/providers/quiet-bakery/submit-review')).status).toBe(200);
  // The 401 of a refused sign-in and the 404 pages are answers the tests ask for.
  ({ context, page, offOrigin, problems } = await openBrowser(h, [401, 404]));
});

afterAll(async () => {
  await context?.close();
  await h?.close();
});

describe('the operator console in Chromium', () => {
  it('refuses a wrong token in words, then signs the operator in with an HttpOnly SameSite=Strict cookie', async () => {
    await signIn('not-the-token');
    await expect(flash()).resolves.toContain('does not accept this token');
    await expectAccessible(page, 'sign-in');
    await shot(page, 'sign-in');
    await signIn(ADMIN);
    await expect(page.locator('h1').textContent()).resolves.toBe('Providers');
    const cookies = await context.cookies(`${h.url}/console/`);
    const session = cookies.find((c) => c.name === 'provcert_console');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console' });
    expect(JSON.stringify(cookies)).not.toContain(ADMIN);
  });

  it('lists providers with the review queue first, and filters through /admin/providers', async () => {
    const slugs = await page
      .locator('#providers tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-slug')));
    expect(slugs[0]).toBe('quiet-bakery');
    expect(slugs).toHaveLength(3);
    await expectAccessible(page, 'providers');
    await shot(page, 'providers');

    await page.getByLabel('Review status').selectOption('PENDING_APPROVAL');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.locator('#providers tbody tr').count()).resolves.toBe(1);
    expect(page.url()).toContain('reviewStatus=PENDING_APPROVAL');

    await page.goto(`${h.url}/console/providers?capability=SEARCH`);
    await expect(page.locator('#providers tbody tr').getAttribute('data-slug')).resolves.toBe('quiet-bakery');
    await page.goto(`${h.url}/console/providers?query=demo`);
    await expect(page.locator('#providers tbody tr').getAttribute('data-slug')).resolves.toBe('demo-kitchen');
  });

  it('runs a certification from the provider page, shows its progress, then the new report', async () => {
    await page.locator('#providers a', { hasText: 'Demo Kitchen' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Demo Kitchen');
    let release: () => void = () => {};
    h.hold.until = new Promise((resolve) => {
      release = resolve;
    });
    await page.getByRole('button', { name: 'Run a certification' }).click();
    await expect(page.locator('#certify-progress').textContent()).resolves.toContain('Certification running');
    // The core counts the checks; the page shows them where the button was, out of the total the run planned.
    const total = passingReport().checks.length;
    await page.locator('#certify-progress', { hasText: `1 of ${total} checks done` }).waitFor();
    const bar = page.locator('#certify-bar');
    await expect(Promise.all([bar.getAttribute('value'), bar.getAttribute('max')])).resolves.toEqual([
      '1',
      String(total),
    ]);
    expect(page.url()).toMatch(/#certifications$/);
    const reloaded = page.waitForEvent('load');
    release();
    h.hold.until = undefined;
    await reloaded;
    await expect(page.locator('#certifications-table tbody tr').count()).resolves.toBe(1);
    await expect(page.locator('.flash.ok').textContent()).resolves.toContain('finished: PASS');
    await expectAccessible(page, 'provider');
    await shot(page, 'provider');

    const [report] = await Promise.all([
      context.waitForEvent('page'),
      page
        .locator('#certifications-table a')
        .first()
        .click({ modifiers: ['ControlOrMeta'] }),
    ]);
    await report.waitForLoadState('load');
    await expect(report.locator('#verdict h1').textContent()).resolves.toBe('Certification PASSED');
    // The report's own inline script runs under the console's hash-based CSP.
    await report.locator('#expand-all').click();
    await expect(report.locator('details.check:not([open])').count()).resolves.toBe(0);
    await shot(report, 'report');
    await report.close();
  });

  it('shows webhook events arriving live, verified or rejected with the reason', async () => {
    await page.reload();
    const rows = page.locator('#events tbody tr');
    await expect(page.locator('#live-status').textContent()).resolves.toContain('Live');
    expect(await h.sendEvent('demo-kitchen', demoSecret, { newStatus: 'CONFIRMED' })).toBe(200);
    await rows.first().waitFor();
    await expect(rows.first().textContent()).resolves.toContain('verified');
    expect(await h.sendEvent('demo-kitchen', 'a-wrong-secret')).toBe(401);
    await rows.nth(1).waitFor();
    const rejected = await rows.first().textContent();
    expect(rejected).toContain('rejected');
    expect(rejected).toMatch(/signature/i);
    await expect(page.locator('#events-count').textContent()).resolves.toBe('2');
    await shot(page, 'events-live');
  });

  it('offers a certified draft only submit-for-review, then checks the reason length before sending', async () => {
    await expect(reviewStatus()).resolves.toBe('DRAFT');
    // Approving a draft is not a move of the lifecycle: no button for it.
    await expect(page.getByRole('button', { name: 'Approve' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await expect(reviewStatus()).resolves.toBe('PENDING_APPROVAL');
    await expect(flash()).resolves.toContain('submitted for review: review status is now PENDING_APPROVAL');
    await decide('REQUEST_CHANGES', 'too short');
    await expect(page.locator('#reason-error').textContent()).resolves.toContain('at least 12 characters');
    await expect(reviewStatus()).resolves.toBe('PENDING_APPROVAL');
  });

  it('makes each review decision through the lifecycle', async () => {
    const submit = async (): Promise<void> => {
      expect((await h.api('POST', '/api/v1/providers/demo-kitchen/certify')).status).toBe(200);
      expect((await h.api('POST', '/api/v1/providers/demo-kitchen/submit-review')).status).toBe(200);
      await page.reload();
      await expect(reviewStatus()).resolves.toBe('PENDING_APPROVAL');
    };
    await decide('REJECT', 'The catalog is not a test catalog.');
    await expect(reviewStatus()).resolves.toBe('REJECTED');
    await expect(flash()).resolves.toContain('REJECT recorded: review status is now REJECTED');
    await confirmed('REOPEN', 'Reopen as draft');
    await expect(reviewStatus()).resolves.toBe('DRAFT');
    // Reopen invalidated the earlier certifications: the table says so.
    await expect(page.locator('#certifications-table').textContent()).resolves.toContain('does not count');
    await submit();
    await confirmed('APPROVE', 'Approve');
    await expect(reviewStatus()).resolves.toBe('APPROVED');
    await confirmed('ACTIVATE', 'Activate');
    await expect(reviewStatus()).resolves.toBe('ACTIVE');
    await decide('SUSPEND', 'Webhooks stopped arriving for two days.');
    await expect(reviewStatus()).resolves.toBe('SUSPENDED');
    await confirmed('REOPEN', 'Reopen as draft');
    await submit();
    await decide('REQUEST_CHANGES', HOSTILE_REASON, {
      changes: 'Sign the raw body\nSend x-service-signature',
      note: 'ops-only-note-canary',
    });
    await expect(reviewStatus()).resolves.toBe('CHANGES_REQUESTED');
    const historyText = await page.locator('#history-table').textContent();
    for (const move of ['REJECT', 'REOPEN', 'APPROVE', 'ACTIVATE', 'SUSPEND', 'REQUEST_CHANGES'])
      expect(historyText).toContain(move);
    expect(historyText).toContain('ops-only-note-canary');
    await shot(page, 'decisions');
    // The operator guide's picture (docs/console-provider.png): the top of this page.
    await page.screenshot({ path: join(ARTIFACTS, 'readme-provider.png') });
  });

  it("signs a provider in with its own token: its own page, why it was sent back, no internal note, nobody else's data", async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(demoToken);
    await expect(page.locator('h1').textContent()).resolves.toBe('Demo Kitchen');
    const reason = await page.locator('#visible-reason').textContent();
    expect(reason).toContain('Your <img src=x onerror=');
    expect(reason).toContain('Sign the raw body');
    await expect(page.locator('#decision').count()).resolves.toBe(0);
    await expect(page.locator('main').textContent()).resolves.not.toContain('ops-only-note-canary');
    await expectAccessible(page, 'provider view');
    await shot(page, 'provider-view');
    // Another provider, the operator's table and the operator's forms are not its to see.
    await page.goto(`${h.url}/console/providers/quiet-bakery`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Not found');
    await page.goto(`${h.url}/console/providers/quiet-bakery/certifications/x/report`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Not found');
    await page.goto(`${h.url}/console/providers`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Demo Kitchen');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(ADMIN);
  });

  it('shows hostile provider text as inert text', async () => {
    const hostile = await h.register({ slug: 'hostile-2', name: HOSTILE_NAME });
    expect(await h.sendEvent('hostile-2', hostile.secret, { eventType: HOSTILE_EVENT_TYPE })).toBe(200);
    await page.goto(`${h.url}/console/providers`);
    await expect(page.locator('#providers').textContent()).resolves.toContain('<script>window.__pwned');
    await page.goto(`${h.url}/console/providers/hostile-2`);
    const title = await page.locator('h1').textContent();
    expect(title).toContain('<script>window.__pwned');
    expect(title).toContain('javascript:window.__pwned=1');
    expect(title).toContain('\\u202egnp.exe\\x07');
    // A report whose checks carry markup, opened from that provider's page.
    expect((await h.api('POST', '/api/v1/providers/hostile/certify')).status).toBe(200);
    await page.goto(`${h.url}/console/providers/hostile`);
    await page.locator('#certifications-table a').first().click();
    await expect(page.locator('#verdict h1').textContent()).resolves.toBe('Certification FAILED');
    await expect(page.locator('#checks').textContent()).resolves.toContain(INJECTED_SCRIPT);
    await page.goBack();
    await page.goto(`${h.url}/console/providers/hostile-2`);
    const rows = page.locator('#events tbody tr');
    await expect(rows.first().textContent()).resolves.toContain(
      '<script>window.__pwned="event"</script>\\u2066isolate',
    );
    // An event arriving live is inert too.
    expect(
      await h.sendEvent('hostile-2', hostile.secret, { eventType: HOSTILE_EVENT_TYPE, actionId: HOSTILE_NAME }),
    ).toBe(200);
    await rows.nth(1).waitFor();
    await expect(rows.first().textContent()).resolves.toContain('<script>window.__pwned="event"</script>');
    await expect(page.evaluate('window.__pwned')).resolves.toBeUndefined();
    await expect(page.evaluate('window.__provcertInjected')).resolves.toBeUndefined();
    await expect(page.locator('main script, main img, main a[href^="javascript"], main iframe').count()).resolves.toBe(
      0,
    );
    await expectAccessible(page, 'hostile provider');
    await shot(page, 'hostile');
  });

  it('is readable on a 375 px phone and reachable with the keyboard', async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(`${h.url}/console/providers/demo-kitchen`);
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, 'provider-phone');
    await page.keyboard.press('Tab');
    await expect(page.evaluate('document.activeElement.textContent')).resolves.toBe('Skip to content');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    // From main, the keyboard reaches the first control of the page.
    await expect(page.evaluate('document.activeElement.closest("main") !== null')).resolves.toBe(true);
    await page.setViewportSize({ width: 1200, height: 900 });
  });

  it('signs out: the session is gone', async () => {
    const before = (await context.cookies(`${h.url}/console/`)).find((c) => c.name === 'provcert_console')?.value;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Sign in');
    await page.goto(`${h.url}/console/providers`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Sign in');
    // The old cookie no longer opens anything: the session ended on the server.
    const replay = await fetch(`${h.url}/console/providers`, {
      headers: { cookie: `provcert_console=${before}` },
      redirect: 'manual',
    });
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toBe('/console/sign-in');
    // Signing in again with the keyboard alone: skip link, token field, Enter.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type(ADMIN);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/providers$/);
    await expect(page.locator('h1').textContent()).resolves.toBe('Providers');
  });

  it('fetched nothing from elsewhere and raised no script or CSP error', () => {
    expect(offOrigin).toEqual([]);
    expect(problems).toEqual([]);
  });
});
