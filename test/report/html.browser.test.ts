import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/report.js';
import { renderHtml } from '../../src/report/html.js';
import { launchChromium } from '../support/chromium.js';
import { scratchDir } from '../support/scratch.js';
import { failingReport, INJECTED_SCRIPT, passingReport } from './sample-reports.js';

describe('HTML report in headless Chromium', () => {
  let dir = '';
  let context: BrowserContext;
  const requests: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    dir = await scratchDir('html');
    context = await launchChromium(dir);
    context.on('request', (request) => requests.push(request.url()));
    context.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    context.on('weberror', (error) => problems.push(error.error().message));
  });

  afterAll(async () => {
    await context?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function open(report: RunReport, name: string): Promise<{ page: Page; url: string }> {
    const file = join(dir, `${name}.html`);
    await writeFile(file, renderHtml(report), 'utf8');
    const url = pathToFileURL(file).href;
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    return { page, url };
  }

  it('shows the verdict, expands a failed check to its evidence, runs no injected script and fetches nothing', async () => {
    requests.length = 0;
    const { page, url } = await open(failingReport(), 'failing');

    await expect(page.locator('#verdict').isVisible()).resolves.toBe(true);
    await expect(page.locator('#verdict h1').textContent()).resolves.toBe('Certification FAILED');

    const check = page.locator('#check-quote-math');
    const evidence = check.locator('.evidence');
    // A failure starts expanded (it is what the reader came for); its summary still collapses and expands it.
    await expect(evidence.isVisible()).resolves.toBe(true);
    await check.locator('summary').click();
    await expect(evidence.isVisible()).resolves.toBe(false);
    await check.locator('summary').click();
    await expect(evidence.isVisible()).resolves.toBe(true);
    const request = await evidence.locator('pre.request').textContent();
    expect(request).toContain('POST http://127.0.0.1:4010/quote');
    expect(request).toContain('x-provider-api-key: ****');
    await expect(check.locator('table tbody tr').count()).resolves.toBe(3);
    await expect(check.locator('pre.reproduce').isVisible()).resolves.toBe(true);

    // Provider markup is shown as text and never becomes elements.
    await expect(check.locator('.details').textContent()).resolves.toContain(INJECTED_SCRIPT);
    await expect(page.evaluate('window.__provcertInjected')).resolves.toBeUndefined();
    await expect(page.locator('script').count()).resolves.toBe(1);
    await expect(page.locator('img, iframe, b').count()).resolves.toBe(0);

    await expect(page.locator('#webhooks tbody tr').count()).resolves.toBe(2);

    expect(requests).toEqual([url]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('runs its own inline script under the CSP: expand all, then only problems', async () => {
    const { page } = await open(failingReport(), 'controls');
    await page.locator('#expand-all').click();
    await expect(page.locator('details.check[open]').count()).resolves.toBe(failingReport().checks.length);
    await page.locator('#only-problems').check();
    await expect(page.locator('details.check:visible').count()).resolves.toBe(4);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows a passing verdict', async () => {
    const { page } = await open(passingReport(), 'passing');
    await expect(page.locator('#verdict h1').textContent()).resolves.toBe('Certification PASSED');
    await expect(page.locator('#verdict').getAttribute('data-verdict')).resolves.toBe('PASS');
    await page.close();
  });
});
