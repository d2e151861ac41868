import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveServeSettings } from '../../../src/config/serve.js';
import { loadContract } from '../../../src/contract/load.js';
import { type RunningServe, startServe } from '../../../src/server/serve.js';
import { launchChromium } from '../../support/chromium.js';
import { registration } from '../../support/registration.js';
import { scratchDir } from '../../support/scratch.js';
import { fakeReport } from '../support/fake-report.js';
import { apiClient } from '../support/http-client.js';

const ADMIN = 'admin-token-badge-browser-44';
let dataDir: string;
let serve: RunningServe;

beforeAll(async () => {
  dataDir = await scratchDir('badge-browser');
  const settings = await resolveServeSettings({ port: '0', dataDir, local: true }, dataDir);
  serve = await startServe(settings, {
    contract: await loadContract(),
    certify: async () => fakeReport('PASS'),
    env: { PROVCERT_ADMIN_TOKEN: ADMIN, DEMO_CREDENTIAL: 'badge-browser-credential-5' },
    cwd: dataDir,
    log: () => undefined,
  });
  const call = apiClient(`${serve.core.url}/api/v1`, ADMIN);
  expect((await call('POST', '/providers/register', registration({ slug: 'demo-kitchen' }))).status).toBe(201);
  expect((await call('POST', '/providers/demo-kitchen/certify')).status).toBe(200);
}, 30_000);

afterAll(async () => {
  await serve.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the badge in Chromium', () => {
  it('renders as an image of its own width, with its text', async () => {
    const context = await launchChromium(dataDir);
    try {
      const page = await context.newPage();
      await page.setExtraHTTPHeaders({ authorization: `Bearer ${ADMIN}` });
      const answer = await page.goto(`${serve.core.url}/api/v1/providers/demo-kitchen/badge.svg`);
      expect(answer?.status()).toBe(200);
      const svg = page.locator('svg');
      const box = await svg.boundingBox();
      expect(box?.height).toBe(20);
      expect(box?.width ?? 0).toBeGreaterThan(150);
      expect(await svg.getAttribute('aria-label')).toMatch(
        /^provcert: certified · contract 1\.0\.0 · \d{4}-\d{2}-\d{2}$/,
      );
      const texts = await page.locator('text').allTextContents();
      expect(texts.filter((t) => t.startsWith('certified'))).toHaveLength(2); // the text and its shadow
      expect((await page.screenshot()).length).toBeGreaterThan(1000);
    } finally {
      await context.close();
    }
  }, 60_000);
});
