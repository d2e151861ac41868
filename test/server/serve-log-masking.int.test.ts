import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveServeSettings } from '../../src/config/serve.js';
import type { Contract } from '../../src/contract/contract.js';
import { loadContract } from '../../src/contract/load.js';
import { type RunningServe, startServe } from '../../src/server/serve.js';
import { skeletonOf } from '../../src/util/skeleton.js';
import { scratchDir } from '../support/scratch.js';
import { fakeReport } from './support/fake-report.js';
import { event, post, sign } from './support/http-client.js';

const ADMIN = 'admin-token-canary-9d41e7';
const SHARED = 'shared-webhook-secret-3c8b0f2a';

/** This file's one temp folder; each test's serve keeps its data in a folder of its own inside it. */
let root: string;
let tests = 0;
let contract: Contract;
let dataDir: string;
let serve: RunningServe;
const logLines: string[] = [];

beforeAll(async () => {
  root = await scratchDir('serve-log');
  contract = await loadContract();
});

beforeEach(async () => {
  dataDir = join(root, `test-${++tests}`);
  await mkdir(dataDir);
  logLines.length = 0;
  const settings = await resolveServeSettings({ port: '0', dataDir, local: true, slug: 'sandbox' }, dataDir);
  serve = await startServe(settings, {
    contract,
    certify: async () => fakeReport('PASS'),
    env: { PROVCERT_ADMIN_TOKEN: ADMIN, SERVICE_WEBHOOK_SECRET: SHARED },
    cwd: dataDir,
    log: (line) => logLines.push(line),
  });
});

afterEach(async () => {
  await serve.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("serve's log", () => {
  // A verified event is the provider's own words: an echoing provider can put any secret it knows in them.
  const carried = {
    'the webhook secret': SHARED,
    'the admin token': ADMIN,
    'the webhook secret, upper-cased and split': `${SHARED.toUpperCase().slice(0, 12)}\n${SHARED.toUpperCase().slice(12)}`,
    'the admin token as %XX': [...Buffer.from(ADMIN)].map((b) => `%${b.toString(16)}`).join(''),
  };
  it.each(Object.entries(carried))('never shows a secret carried inside a verified event: %s', async (_name, text) => {
    const body = JSON.stringify(event({ providerSlug: 'sandbox', eventType: text, actionId: text }));
    const answer = await post(`${serve.core.url}/api/v1/webhooks/sandbox`, body, {
      'content-type': 'application/json',
      'x-service-signature': sign(SHARED, body),
    });
    expect(answer.status).toBe(200);
    const log = logLines.join('\n');
    expect(log).toContain('verified');
    for (const secret of [SHARED, ADMIN]) expect(skeletonOf(log).text).not.toContain(skeletonOf(secret).text);
  });
});
