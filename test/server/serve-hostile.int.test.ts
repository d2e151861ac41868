import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveServeSettings } from '../../src/config/serve.js';
import type { Contract } from '../../src/contract/contract.js';
import { loadContract } from '../../src/contract/load.js';
import type { CertifyInput } from '../../src/server/core-routes/deps.js';
import { type RunningServe, startServe } from '../../src/server/serve.js';
import { registration } from '../support/registration.js';
import { scratchDir } from '../support/scratch.js';
import { fakeReport } from './support/fake-report.js';
import { apiClient, event, post, sign } from './support/http-client.js';

const ADMIN = 'admin-token-hostile-31';
const CREDENTIAL = 'credential-in-confined-dir-17';

let contract: Contract;
let dataDir: string;
let serve: RunningServe;
let credentialsSeen: string[];
const env: NodeJS.ProcessEnv = { PROVCERT_ADMIN_TOKEN: ADMIN, SERVICE_WEBHOOK_SECRET: 'shared-server-secret-99' };

const api = apiClient(() => serve.core.url, ADMIN);

beforeAll(async () => {
  contract = await loadContract();
});

beforeEach(async () => {
  dataDir = await scratchDir('serve-hostile');
  credentialsSeen = [];
  const settings = await resolveServeSettings({ port: '0', dataDir, local: true, slug: 'sandbox' }, dataDir);
  serve = await startServe(settings, {
    contract,
    certify: (input: CertifyInput) => {
      credentialsSeen.push(input.credential);
      return Promise.resolve(fakeReport('PASS'));
    },
    env,
    cwd: dataDir,
    log: () => undefined,
  });
});

afterEach(async () => {
  await serve.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('provcert serve under hostile use', () => {
  it('20 simultaneous registrations of one new slug: exactly one 201 with one secret; the others 409 or a secret-less update', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api('POST', '/api/v1/providers/register', registration())),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201 && s !== 409 && s !== 200)).toEqual([]);
    expect(statuses).toContain(409);
    const secrets = answers
      .map((a) => (a.json['webhook'] as { secret?: string } | undefined)?.secret)
      .filter((s) => s !== undefined);
    expect(secrets).toHaveLength(1);
    const secret = secrets[0] ?? '';
    const body = JSON.stringify(event({ providerSlug: 'demo-kitchen' }));
    expect(
      (
        await post(serve.core.urlFor('demo-kitchen'), body, {
          'content-type': 'application/json',
          'x-service-signature': sign(secret, body),
        })
      ).status,
    ).toBe(200);
  });

  it('the shared server secret never verifies a legacy-route event for a registered provider, which keeps its own eventIds', async () => {
    const created = await api('POST', '/api/v1/providers/register', registration());
    const own = (created.json['webhook'] as { secret: string }).secret;
    const shared = env['SERVICE_WEBHOOK_SECRET'] ?? '';
    const spoof = JSON.stringify(event({ providerSlug: 'demo-kitchen', eventId: 'evt-shared-1' }));
    const spoofed = await post(`${serve.core.url}/api/v1/webhooks`, spoof, {
      'content-type': 'application/json',
      'x-service-signature': sign(shared, spoof),
    });
    expect(spoofed.status).toBe(401);
    const genuine = JSON.stringify(event({ providerSlug: 'demo-kitchen', eventId: 'evt-shared-1' }));
    expect(
      (
        await post(serve.core.urlFor('demo-kitchen'), genuine, {
          'content-type': 'application/json',
          'x-service-signature': sign(own, genuine),
        })
      ).status,
    ).toBe(200);
    const listed = await api('GET', '/api/v1/providers/demo-kitchen/events');
    const data = listed.json['data'] as {
      eventId?: string;
      verified: boolean;
      duplicate: boolean;
      answeredStatus: number;
    }[];
    expect(
      data.filter((e) => e.eventId === 'evt-shared-1').map((e) => [e.answeredStatus, e.verified, e.duplicate]),
    ).toEqual([
      [401, false, false],
      [200, true, false],
    ]);
  });

  interface CredentialCase {
    name: string;
    file: string;
    prepare?: () => Promise<void>;
    registration: number;
    certify?: { status: number; message?: RegExp };
  }
  const credentialCases: CredentialCase[] = [
    { name: 'a file inside the credential directory', file: 'demo.key', registration: 201, certify: { status: 200 } },
    { name: 'a path climbing out with ..', file: '../webhook-secret', registration: 400 },
    { name: 'an absolute path', file: '/etc/passwd', registration: 400 },
    {
      name: 'a symlink inside the directory pointing outside it',
      file: 'escape.key',
      registration: 201,
      prepare: () => symlink(join(dataDir, 'webhook-secret'), join(dataDir, 'credentials', 'escape.key')),
      certify: { status: 400, message: /outside the credential directory/ },
    },
  ];
  it.each(credentialCases)('credentialFile: $name', async (c) => {
    await mkdir(join(dataDir, 'credentials'), { recursive: true });
    await writeFile(join(dataDir, 'credentials', 'demo.key'), `${CREDENTIAL}\n`);
    await writeFile(join(dataDir, 'webhook-secret'), 'server-secret-must-not-leak\n').catch(() => undefined);
    await c.prepare?.();
    const body = registration({ credentialEnv: undefined, credentialFile: c.file });
    const registered = await api('POST', '/api/v1/providers/register', body);
    expect(registered.status).toBe(c.registration);
    if (!c.certify) return;
    const certified = await api('POST', '/api/v1/providers/demo-kitchen/certify');
    expect(certified.status).toBe(c.certify.status);
    if (c.certify.message) expect(String(certified.json['message'])).toMatch(c.certify.message);
    expect(credentialsSeen).toEqual(c.certify.status === 200 ? [CREDENTIAL] : []);
  });

  it.each([
    ['limit=0', /limit must be/],
    ['limit=abc', /limit must be/],
    ['cursor=not-a-cursor', /cursor is not one this server handed out/],
  ])('events listing refuses %s with a clear 400', async (query, message) => {
    const answer = await api('GET', `/api/v1/providers/sandbox/events?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(message) as unknown });
  });
});
