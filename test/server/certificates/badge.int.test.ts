import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveServeSettings } from '../../../src/config/serve.js';
import { loadContract } from '../../../src/contract/load.js';
import { flatBadge } from '../../../src/server/certificates/badge.js';
import { type RunningServe, startServe } from '../../../src/server/serve.js';
import { registration } from '../../support/registration.js';
import { scratchDir } from '../../support/scratch.js';
import { fakeReport } from '../support/fake-report.js';
import { apiClient } from '../support/http-client.js';

const ADMIN = 'admin-token-badge-19';
const SLUG = 'demo-kitchen';
let dataDir: string;
let serve: RunningServe;
let verdict: 'PASS' | 'FAIL' = 'PASS';

beforeEach(async () => {
  dataDir = await scratchDir('badge');
  const settings = await resolveServeSettings({ port: '0', dataDir, local: true }, dataDir);
  serve = await startServe(settings, {
    contract: await loadContract(),
    certify: async () => fakeReport(verdict),
    env: { PROVCERT_ADMIN_TOKEN: ADMIN, DEMO_CREDENTIAL: 'badge-credential-72' },
    cwd: dataDir,
    log: () => undefined,
    now: () => new Date('2026-11-27T10:00:00.000Z'),
  });
});
afterEach(async () => {
  await serve.close();
  await rm(dataDir, { recursive: true, force: true });
});

const badge = async (token?: string) => {
  const res = await fetch(`${serve.core.url}/api/v1/providers/${SLUG}/badge.svg`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

describe('GET /providers/{slug}/badge.svg', () => {
  it('says certified, the contract version and the date once a passing certification counts; public once listed', async () => {
    const call = apiClient(`${serve.core.url}/api/v1`, ADMIN);
    expect((await call('POST', '/providers/register', registration({ slug: SLUG }))).status).toBe(201);
    expect((await badge()).status).toBe(404); // not listed: the slug is unknown to strangers
    expect((await badge(ADMIN)).text).toContain('aria-label="provcert: not certified · contract 1.0.0"');
    expect((await call('POST', `/providers/${SLUG}/certify`)).status).toBe(200);
    const certified = await badge(ADMIN);
    expect(certified.type).toBe('image/svg+xml; charset=utf-8');
    expect(certified.text).toContain('aria-label="provcert: certified · contract 1.0.0 · 2026-11-27"');
    expect(certified.text).toContain('fill="#4c1"');
    for (const step of ['/providers/demo-kitchen/submit-review']) expect((await call('POST', step)).status).toBe(200);
    for (const decision of ['APPROVE', 'ACTIVATE'])
      expect((await call('POST', `/admin/providers/${SLUG}/review`, { decision })).status).toBe(200);
    const listed = await badge();
    expect(listed.status).toBe(200);
    expect(listed.text).toBe(certified.text);
    expect(listed.text).not.toMatch(/127\.0\.0\.1|credential|DEMO_/);
  });

  it('says not certified after a failing certification', async () => {
    const call = apiClient(`${serve.core.url}/api/v1`, ADMIN);
    await call('POST', '/providers/register', registration({ slug: SLUG }));
    verdict = 'FAIL';
    await call('POST', `/providers/${SLUG}/certify`);
    verdict = 'PASS';
    const text = (await badge(ADMIN)).text;
    expect(text).toContain('not certified');
    expect(text).toContain('fill="#9f9f9f"');
  });

  it('escapes what it draws', () => {
    expect(flatBadge({ label: '<a>', message: '"&"', color: '#4c1' })).toContain('&lt;a&gt;: &quot;&amp;&quot;');
  });
});
