import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { packageRoot } from '../../src/util/package-root.js';
import { launchChromium } from '../support/chromium.js';
import type { Harness } from './harness.js';

/** Screenshots of the console's pages, for people to look at (gitignored). */
export const ARTIFACTS = join(packageRoot, 'test-artifacts', 'console');

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Chromium on the console, watched: what the tests must find empty at the end is collected as it happens. */
export interface WatchedBrowser {
  context: BrowserContext;
  page: Page;
  /** Requests that left the console's origin. */
  offOrigin: string[];
  /** Console errors and page errors (a CSP violation shows up as one). */
  problems: string[];
}

/**
 * Chromium with one page, its profile in the harness's folder. A failed load answered with one of
 * `expectedStatuses` is an answer a test asks for, not a problem.
 */
export async function openBrowser(h: Harness, expectedStatuses: number[]): Promise<WatchedBrowser> {
  await mkdir(ARTIFACTS, { recursive: true });
  const context = await launchChromium(h.dir, { viewport: { width: 1200, height: 900 } });
  const offOrigin: string[] = [];
  const problems: string[] = [];
  const expected = new RegExp(
    `^Failed to load resource: the server responded with a status of (${expectedStatuses.join('|')})`,
  );
  context.on('request', (request) => {
    if (!request.url().startsWith(h.url)) offOrigin.push(request.url());
  });
  context.on('console', (message) => {
    // "Failed to load resource" names no resource: its location does.
    const where = message.location().url;
    if (message.type() === 'error' && !expected.test(message.text()))
      problems.push(where ? `${message.text()} (${where})` : message.text());
  });
  context.on('weberror', (error) => problems.push(error.error().message));
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return { context, page, offOrigin, problems };
}

/** A full-page screenshot in ARTIFACTS. */
export const shot = (target: Page, name: string): Promise<Buffer> =>
  target.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

/** Signs in through the sign-in form, as a person does. */
export async function signInWith(page: Page, h: Harness, token: string): Promise<void> {
  await page.goto(`${h.url}/console/`);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** axe-core on the page: no serious or critical violation. */
export async function expectAccessible(target: Page, name: string): Promise<void> {
  await target.evaluate(await axeSource);
  const result = (await target.evaluate(
    "axe.run(document, { resultTypes: ['violations'] }).then(r => r.violations.map(v => ({ id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')) })))",
  )) as { id: string; impact: string; nodes: string[] }[];
  const serious = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `axe on ${name}`).toEqual([]);
}
