import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passingReport } from '../report/sample-reports.js';
import { ARTIFACTS, expectAccessible, openBrowser, shot, signInWith } from './browser.js';
import { ADMIN, type Harness, startHarness } from './harness.js';

const CONFIGURED = 'configured-kitchen';

let h: Harness;
let context: BrowserContext;
let page: Page;
let oldSecret = '';
let newSecret = '';
let providerToken = '';
let providerSecret = '';
const logLines: string[] = [];
let offOrigin: string[] = [];
let problems: string[] = [];

/** Who rotated demo-kitchen's secret, oldest first ('admin' or 'provider'), as the operations log records it. */
const rotatedBy = async (): Promise<string[]> =>
  (
    (await h.api('GET', '/api/v1/admin/logs/events?kind=secret-rotation&slug=demo-kitchen')).json['data'] as Record<
      string,
      unknown
    >[]
  ).map((e) => String(e['actor']));
const rotations = async (): Promise<number> => (await rotatedBy()).length;

/** The newest listed event of demo-kitchen: whether it verified, and with which secret. */
async function newestEvent(): Promise<Record<string, unknown>> {
  const listed = await h.api('GET', '/api/v1/providers/demo-kitchen/events');
  const data = listed.json['data'] as Record<string, unknown>[];
  return data[data.length - 1] ?? {};
}

/** Everything the browser holds of the page: its markup and its URL. */
/**
 * Confirms and sends the rotate form of `section`: the answer is a 200 page, never stored, holding a fresh
 * secret in no URL or cookie. Returns the secret it shows.
 */
async function rotateFrom(section: Locator, confirmation: RegExp): Promise<string> {
  await section.getByLabel(confirmation).check();
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/rotate-webhook-secret') && r.request().method() === 'POST'),
    section.getByRole('button', { name: 'Rotate webhook secret' }).click(),
  ]);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['cache-control']).toBe('no-store');
  await expect(page.locator('h1').textContent()).resolves.toBe('Webhook secret rotated');
  const secret = (await page.locator('#new-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[0-9a-f]{64}$/);
  expect(page.url()).not.toContain(secret);
  expect(JSON.stringify(await context.cookies())).not.toContain(secret);
  return secret;
}

const visible = async (): Promise<string> => `${page.url()}\n${await page.content()}`;

beforeAll(async () => {
  h = await startHarness(passingReport, {
    // The overlap is an explicit setting (default 0, the contract's reading); these tests show the window.
    flags: { slug: CONFIGURED, webhookSecretOverlap: '600' },
    log: (line) => logLines.push(line),
  });
  const demo = await h.register({});
  oldSecret = demo.secret;
  providerToken = demo.token;
  // The 409 of a re-sent rotation is the answer the test asks for, the 404 the favicon's.
  ({ context, page, offOrigin, problems } = await openBrowser(h, [404, 409]));
  await signInWith(page, h, ADMIN);
  await page.waitForURL(/\/console\/providers$/);
});

afterAll(async () => {
  await context?.close();
  await h?.close();
});

describe('rotating a webhook secret in Chromium', () => {
  it('warns, asks for confirmation, then shows the new secret once on a no-store page', async () => {
    await page.goto(`${h.url}/console/providers/demo-kitchen`);
    const section = page.locator('#webhook-secret');
    await expect(section.locator('#rotate-warning').textContent()).resolves.toContain('webhookSecretOverlap');
    await expectAccessible(page, 'provider with the rotate form');
    await section.screenshot({ path: join(ARTIFACTS, 'rotate-form.png') });
    // Unconfirmed, the browser does not send the form.
    await section.getByRole('button', { name: 'Rotate webhook secret' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Demo Kitchen');
    expect(await rotations()).toBe(0);

    newSecret = await rotateFrom(section, /I will give the provider backend/);
    expect(newSecret).not.toBe(oldSecret);
    const until = Date.parse((await page.locator('#previous-valid-until').textContent()) ?? '');
    expect(until).toBeGreaterThan(Date.now());
    expect(await rotations()).toBe(1);
    await expectAccessible(page, 'rotated');
    await shot(page, 'rotated');
    // Leaving the page blanks the secret, so a back/forward snapshot of it would hold none.
    await page.evaluate("window.dispatchEvent(new PageTransitionEvent('pagehide'))");
    await expect(page.locator('#new-secret').textContent()).resolves.toBe('(shown once; no longer shown)');
  });

  it('the new secret signs webhooks at once; the old one verifies as "previous" inside the overlap window', async () => {
    expect(await h.sendEvent('demo-kitchen', newSecret)).toBe(200);
    expect(await newestEvent()).toMatchObject({ verified: true });
    expect((await newestEvent())['verifiedWith']).not.toBe('previous');
    expect(await h.sendEvent('demo-kitchen', oldSecret)).toBe(200);
    expect(await newestEvent()).toMatchObject({ verified: true, verifiedWith: 'previous' });
  });

  it('a reload or going back does not show the secret again, nor rotate again', async () => {
    // Chromium re-sends the post on reload: its spent form token is refused (409), nothing rotates.
    const reloaded = await page.reload();
    expect(reloaded?.status()).toBe(409);
    await expect(page.locator('h1').textContent()).resolves.toBe('Webhook secret not rotated');
    expect(await visible()).not.toContain(newSecret);
    await page.getByRole('link', { name: 'Back to demo-kitchen' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Demo Kitchen');
    expect(await visible()).not.toContain(newSecret);
    // Back to the entry of a post: the browser kept no copy (no-store), so it shows its own "resend?" page
    // (net::ERR_CACHE_MISS) or re-sends the post (refused); never the secret.
    const errorPage = page
      .waitForEvent('framenavigated', { predicate: (f) => f.url().startsWith('chrome-error:'), timeout: 5_000 })
      .catch(() => undefined);
    const back = await page.goBack().then(
      () => 'shown',
      (e: Error) => e.message,
    );
    if (back.includes('ERR_CACHE_MISS')) await errorPage;
    await page.waitForLoadState('load');
    expect(await visible()).not.toContain(newSecret);
    await page.goForward();
    await expect(page.locator('h1').textContent()).resolves.toBe('Demo Kitchen');
    expect(await rotations()).toBe(1);
    // The shown secret is still the current one: nothing rotated it again.
    expect(await h.sendEvent('demo-kitchen', newSecret)).toBe(200);
    expect((await newestEvent())['verifiedWith']).not.toBe('previous');
  });

  it('explains beside a disabled button that a slug serve was started with cannot be rotated', async () => {
    await page.goto(`${h.url}/console/providers/${CONFIGURED}`);
    const button = page.locator('#webhook-secret').getByRole('button', { name: 'Rotate webhook secret' });
    await expect(button.isDisabled()).resolves.toBe(true);
    await expect(page.locator('#rotate-unavailable').textContent()).resolves.toMatch(
      /one of the providers serve was started with[\s\S]*answered 404[\s\S]*restart provcert serve/,
    );
    await expectAccessible(page, 'configured slug');
    await shot(page, 'configured-slug');
  });

  it('a signed-in provider rotates its own secret the same way: shown once, no-store, gone on reload', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in$/);
    await signInWith(page, h, providerToken);
    await page.waitForURL(/\/console\/providers\/demo-kitchen$/);
    const section = page.locator('#webhook-secret');
    await expect(section.locator('#rotate-warning').textContent()).resolves.toContain('webhookSecretOverlap');
    await expectAccessible(page, 'provider session with the rotate form');
    await section.screenshot({ path: join(ARTIFACTS, 'rotate-form-provider.png') });

    providerSecret = await rotateFrom(section, /I will configure the new secret in my provider backend/);
    expect(providerSecret).not.toBe(newSecret);
    // Through the provider's own route and token: the log names the provider, not the operator.
    expect(await rotatedBy()).toEqual(['admin', 'provider']);
    await expectAccessible(page, 'rotated by the provider');
    await shot(page, 'rotated-provider');

    expect(await h.sendEvent('demo-kitchen', providerSecret)).toBe(200);
    expect(await newestEvent()).toMatchObject({ verified: true });
    expect((await newestEvent())['verifiedWith']).not.toBe('previous');

    const reloaded = await page.reload();
    expect(reloaded?.status()).toBe(409);
    await expect(page.locator('h1').textContent()).resolves.toBe('Webhook secret not rotated');
    expect(await visible()).not.toContain(providerSecret);
    await expectAccessible(page, 'not rotated (provider)');
    await page.getByRole('link', { name: 'Back to demo-kitchen' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Demo Kitchen');
    expect(await visible()).not.toContain(providerSecret);
    expect(await rotations()).toBe(2);
  });

  it('wrote no secret to the serve log, fetched nothing from elsewhere and raised no script or CSP error', () => {
    expect(logLines.some((l) => l.includes('webhook secret of demo-kitchen rotated'))).toBe(true);
    for (const line of logLines) {
      expect(line).not.toContain(newSecret);
      expect(line).not.toContain(oldSecret);
      expect(line).not.toContain(providerSecret);
    }
    expect(offOrigin).toEqual([]);
    expect(problems).toEqual([]);
  });
});
