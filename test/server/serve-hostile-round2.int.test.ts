import { mkdir, rm, writeFile } from 'node:fs/promises';
import { type IncomingMessage, request } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { engineCertifier } from '../../src/cli/commands/serve.js';
import { main } from '../../src/cli/main.js';
import { resolveServeSettings } from '../../src/config/serve.js';
import { createConsole } from '../../src/console/console.js';
import { SESSION_COOKIE, SessionStore } from '../../src/console/session.js';
import type { Contract } from '../../src/contract/contract.js';
import { loadContract } from '../../src/contract/load.js';
import { UsageError } from '../../src/model/errors.js';
import type { FleetReport } from '../../src/model/fleet-report.js';
import { type RunningProvider, startReferenceProvider } from '../../src/reference-provider/index.js';
import { stripControl } from '../../src/report/format.js';
import { htmlEscape } from '../../src/report/html.js';
import type { Certifier } from '../../src/server/core-routes/deps.js';
import { type RunningServe, startServe } from '../../src/server/serve.js';
import { fieldOf, formClient } from '../console/form-client.js';
import { captureIo } from '../support/cli-io.js';
import { reservePorts } from '../support/ports.js';
import { registration } from '../support/registration.js';
import { scratchDir } from '../support/scratch.js';
import { fakeReport } from './support/fake-report.js';
import { apiClient, event, post, sign } from './support/http-client.js';

// Issue 32, second round: the ways around last round's fixes, each a row that failed on the code before it.

const ADMIN = 'admin-token-round2-7f3c1a9e5b';
const CREDENTIAL = 'provider-credential-round2-4d8e2b6a1c90';
const FILE_CREDENTIAL = 'file-credential-round2-9a1b7c3d5e2f';
/** Read-only capabilities: a certification of them sends no POST and waits for no webhook (quick rows). */
const READ_ONLY = ['METADATA', 'HEALTH', 'CATALOG'];

let contract: Contract;
const cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => {
  contract = await loadContract();
});
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

interface Core {
  serve: RunningServe;
  dir: string;
  url: string;
  log: string[];
  api: ReturnType<typeof apiClient>;
  register(fields: Record<string, unknown>): Promise<{ secret: string; token: string }>;
}

/** `provcert serve` in-process with the console mounted, as the serve command starts it. */
async function startCore(certify?: (settings: Parameters<typeof engineCertifier>[1]) => Certifier): Promise<Core> {
  const dir = await scratchDir('serve-round2');
  const dataDir = join(dir, 'data');
  await mkdir(join(dataDir, 'credentials'), { recursive: true });
  await writeFile(join(dataDir, 'credentials', 'demo.key'), `${FILE_CREDENTIAL}\n`);
  const settings = await resolveServeSettings({ port: '0', dataDir, local: true }, dir);
  const log: string[] = [];
  // The throttle's clock stands still: "within a second" holds for the whole row, whatever the machine's speed.
  const operatorConsole = createConsole({ now: () => 1_000_000 });
  const serve = await startServe(settings, {
    contract,
    certify: certify ? certify(settings) : () => Promise.resolve(fakeReport('PASS')),
    env: { PROVCERT_ADMIN_TOKEN: ADMIN, DEMO_CREDENTIAL: CREDENTIAL },
    cwd: dir,
    log: (line) => log.push(line),
    mount: operatorConsole.routes,
  });
  operatorConsole.attach(serve, ADMIN);
  cleanups.push(async () => {
    await serve.close();
    await rm(dir, { recursive: true, force: true });
  });
  const api = apiClient(serve.core.url, ADMIN);
  return {
    serve,
    dir,
    url: serve.core.url,
    log,
    api,
    async register(fields) {
      const answer = await api('POST', '/api/v1/providers/register', registration(fields));
      expect([200, 201], JSON.stringify(answer.json)).toContain(answer.status);
      return {
        secret: (answer.json['webhook'] as { secret?: string }).secret ?? '',
        token: (answer.json['providerToken'] as { token?: string } | undefined)?.token ?? '',
      };
    },
  };
}

async function sendSigned(core: Core, slug: string, secret: string, overrides: Record<string, unknown>) {
  const body = JSON.stringify(event({ providerSlug: slug, ...overrides }));
  return post(`${core.url}/api/v1/webhooks/${slug}`, body, {
    'content-type': 'application/json',
    'x-service-signature': sign(secret, body),
  });
}

/** The reference provider answering as `slug` (read-only capabilities), closed after the row. */
async function referenceAs(slug: string, webhookUrl?: string): Promise<RunningProvider> {
  const provider = await startReferenceProvider({
    slug,
    authMethod: 'API_KEY',
    credential: CREDENTIAL,
    webhookSecret: 'reference-webhook-secret-round2',
    capabilities: READ_ONLY,
    ...(webhookUrl ? { webhookUrl } : {}),
  });
  cleanups.push(() => provider.close());
  return provider;
}

/** One request from `localAddress` (a loopback address of its own: node:http binds it, fetch cannot). */
function requestFrom(
  localAddress: string,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; text: string; cookies: string[] }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8'),
          cookies: res.headers['set-cookie'] ?? [],
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** One sign-in through the console's form, sent from `localAddress`. */
async function signInFrom(core: Core, localAddress: string, token: string): Promise<{ status: number; text: string }> {
  const form = await requestFrom(localAddress, `${core.url}/console/sign-in`);
  const cookie = (form.cookies.find((c) => c.startsWith('provcert_console_signin=')) ?? '').split(';')[0] ?? '';
  const body = new URLSearchParams({ csrf: fieldOf(form.text, 'csrf'), token }).toString();
  return requestFrom(localAddress, `${core.url}/console/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length), cookie },
    body,
  });
}

/** The first live-stream `webhook` event of a provider page, parsed. */
async function firstStreamedEvent(core: Core, cookie: string, slug: string): Promise<{ raw: string; data: unknown }> {
  const res = await fetch(`${core.url}/console/providers/${slug}/stream?after=0`, { headers: { cookie } });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let text = '';
  while (!/event: webhook\ndata: [^\n]*\n/.test(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  await reader.cancel();
  const line = /event: webhook\ndata: ([^\n]*)\n/.exec(text)?.[1] ?? 'null';
  return { raw: line, data: JSON.parse(line) as unknown };
}

interface Attack {
  item: string;
  name: string;
  run(): Promise<void>;
}

const ATTACKS: Attack[] = [
  {
    item: '2',
    name: 'serve: a provider registered under another provider’s slug fails certification naming both slugs, and cannot submit for review',
    async run() {
      const core = await startCore((settings) => engineCertifier(contract, settings));
      const provider = await referenceAs('demo-kitchen');
      await core.register({ slug: 'other-kitchen', baseUrl: provider.url, capabilities: READ_ONLY });
      const certified = await core.api('POST', '/api/v1/providers/other-kitchen/certify');
      expect(certified.status).toBe(200);
      const report = certified.json['report'] as {
        verdict: string;
        checks: { id: string; findings: { message: string }[] }[];
      };
      expect(report.verdict).toBe('FAIL');
      const metadata = report.checks.find((c) => c.id === 'metadata')?.findings.map((f) => f.message);
      expect(metadata?.join('\n')).toMatch(/slug "demo-kitchen", but this provider is registered as "other-kitchen"/);
      const submitted = await core.api('POST', '/api/v1/providers/other-kitchen/submit-review');
      expect(submitted.status).toBe(409);
    },
  },
  {
    item: '2',
    name: 'serve: a certification counts only the events that arrived on its own route, verified with its own secret',
    async run() {
      const seen: string[][] = [];
      const core = await startCore(() => async ({ inbox }) => {
        seen.push(inbox.all().map((w) => `${w.slug}:${String(w.event?.['eventId'])}:${w.verified}`));
        return fakeReport('PASS');
      });
      const demo = await core.register({ slug: 'demo-kitchen' });
      const other = await core.register({ slug: 'other-kitchen' });
      expect((await sendSigned(core, 'demo-kitchen', demo.secret, { eventId: 'evt-demo-route' })).status).toBe(200);
      expect((await sendSigned(core, 'other-kitchen', other.secret, { eventId: 'evt-own-route' })).status).toBe(200);
      expect((await core.api('POST', '/api/v1/providers/other-kitchen/certify')).status).toBe(200);
      expect(seen).toEqual([['other-kitchen:evt-own-route:true']]);
    },
  },
  {
    item: '2',
    name: 'batch: a fleet member whose provider-info answers another slug fails metadata naming both',
    async run() {
      const dir = await scratchDir('batch-round2');
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const reserved = await reservePorts(1);
      const port = reserved.ports[0] ?? 0;
      await reserved.release();
      const provider = await referenceAs('demo-kitchen');
      await writeFile(
        join(dir, 'fleet.yaml'),
        `name: identity\nwebhookPort: ${port}\ndefaults: { auth: API_KEY, local: true }\nproviders:\n` +
          `  - slug: other-kitchen\n    baseUrl: ${provider.url}\n    credentialEnv: OTHER_KEY\n    webhookSecretEnv: OTHER_SECRET\n`,
      );
      const { io, out, err } = captureIo(dir, { OTHER_KEY: CREDENTIAL, OTHER_SECRET: 'other-webhook-secret-round2' });
      const code = await main(['node', 'provcert', 'batch', 'fleet.yaml', '--no-color', '--out', 'out'], io);
      expect(code, out() + err()).toBe(1);
      const { readFile } = await import('node:fs/promises');
      const fleet = JSON.parse(await readFile(join(dir, 'out', 'fleet.json'), 'utf8')) as FleetReport;
      const member = fleet.providers.find((p) => p.slug === 'other-kitchen');
      const metadata = member?.report?.checks.find((c) => c.id === 'metadata');
      expect(metadata?.status).toBe('fail');
      expect(metadata?.findings.map((f) => f.message).join('\n')).toMatch(/"demo-kitchen".*"other-kitchen"/);
    },
  },
  {
    item: '3',
    name: 'the operator signs in while another address floods wrong sign-ins (with and without a token)',
    async run() {
      const core = await startCore();
      // Waves of wrong sign-ins (some without a token) from one address: more than the throttle allows a second.
      for (let wave = 0; wave < 4; wave++)
        await Promise.all(
          Array.from({ length: 4 }, (_, i) => signInFrom(core, '127.0.0.2', i === 0 ? ' ' : `guess-${wave}-${i}`)),
        );
      expect((await signInFrom(core, '127.0.0.2', 'guess-again')).text).toContain('too many failed sign-ins');
      const operator = await signInFrom(core, '127.0.0.1', ADMIN);
      expect(operator.status, operator.text.slice(0, 300)).toBe(303);
    },
  },
  {
    item: '3',
    name: 'a token that keeps failing is throttled whatever address presents it',
    async run() {
      const core = await startCore();
      const answers = [];
      for (const address of ['127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7', '127.0.0.8'])
        answers.push(await signInFrom(core, address, 'one-guessed-token'));
      expect(answers.slice(0, 5).every((a) => a.text.includes('does not accept this token'))).toBe(true);
      expect(answers[5]?.text).toContain('too many failed sign-ins');
    },
  },
  {
    item: '3',
    name: 'a provider signing in 10,100 times never evicts the operator’s session',
    async run() {
      const store = new SessionStore();
      const operator = store.create({ kind: 'admin' }, ADMIN);
      for (let i = 0; i < 10_100; i++) store.create({ kind: 'provider', slug: 'demo-kitchen' }, 'provider-token');
      const req = { headers: { cookie: `${SESSION_COOKIE}=${operator.id}` } } as IncomingMessage;
      expect(store.get(req)).toBe(operator);
    },
  },
  {
    item: '4',
    name: 'a provider credential carried by a verified event is masked in the log, events API, console page, live stream and export',
    async run() {
      const core = await startCore();
      const { secret } = await core.register({ slug: 'demo-kitchen' });
      const file = await core.register({ slug: 'file-kitchen', credentialEnv: undefined, credentialFile: 'demo.key' });
      expect((await sendSigned(core, 'demo-kitchen', secret, { actionId: `act-${CREDENTIAL}` })).status).toBe(200);
      expect(
        (await sendSigned(core, 'file-kitchen', file.secret, { actionId: `act-${FILE_CREDENTIAL}`, eventId: 'f' }))
          .status,
      ).toBe(200);
      const client = formClient(core.url);
      const { cookie } = await client.signIn(ADMIN);
      const outputs: Record<string, string> = {
        log: core.log.join('\n'),
        'events API': JSON.stringify((await core.api('GET', '/api/v1/providers/demo-kitchen/events')).json),
        'events API (file credential)': JSON.stringify(
          (await core.api('GET', '/api/v1/providers/file-kitchen/events')).json,
        ),
        'console page': (await client.get('/console/providers/demo-kitchen', cookie)).text,
        'live stream': (await firstStreamedEvent(core, cookie, 'demo-kitchen')).raw,
        export: JSON.stringify((await core.api('GET', '/api/v1/admin/logs/export')).json),
        'export (csv)': await (
          await fetch(`${core.url}/api/v1/admin/logs/export?format=csv`, {
            headers: { authorization: `Bearer ${ADMIN}` },
          })
        ).text(),
      };
      expect(outputs['events API']).toContain('****');
      for (const [name, text] of Object.entries(outputs)) {
        expect(text, name).not.toContain(CREDENTIAL);
        expect(text, name).not.toContain(FILE_CREDENTIAL);
      }
    },
  },
  {
    item: '5',
    name: 'the live stream escapes bidi, C1 and separator characters exactly as the static page does',
    async run() {
      const core = await startCore();
      const { secret } = await core.register({ slug: 'demo-kitchen' });
      const hostile = 'act-\u202Egnp.exe\u0085\u009B31m\u2028\u2029-end';
      expect((await sendSigned(core, 'demo-kitchen', secret, { actionId: hostile })).status).toBe(200);
      const client = formClient(core.url);
      const { cookie } = await client.signIn(ADMIN);
      const page = (await client.get('/console/providers/demo-kitchen', cookie)).text;
      const streamed = await firstStreamedEvent(core, cookie, 'demo-kitchen');
      const shown = stripControl(hostile);
      expect(shown).not.toBe(hostile);
      expect(page).toContain(htmlEscape(hostile));
      expect((streamed.data as { actionId: string }).actionId).toBe(shown);
      for (const c of ['\u202E', '\u0085', '\u009B', '\u2028', '\u2029']) expect(streamed.raw).not.toContain(c);
    },
  },
  {
    item: '10',
    name: 'a data dir that cannot be made (a path through a file) is one line naming the folder, a usage error',
    async run() {
      const dir = await scratchDir('serve-round2-file');
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      await writeFile(join(dir, 'not-a-folder'), 'x');
      const dataDir = join(dir, 'not-a-folder', 'data');
      const settings = await resolveServeSettings({ port: '0', dataDir, local: true }, dir);
      const started = startServe(settings, {
        contract,
        certify: () => Promise.resolve(fakeReport('PASS')),
        env: {},
        cwd: dir,
        nameSetting: (s) => `--${s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
      });
      const error = await started.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(UsageError);
      const message = (error as Error).message;
      expect(message).not.toContain('\n');
      expect(message).toContain(`the data dir ${dataDir} is unusable (ENOTDIR`);
      expect(message).toContain('--data-dir');
    },
  },
];

describe('serve under hostile use, second round (issue 32)', () => {
  it.each(ATTACKS.map((a) => [`item ${a.item}: ${a.name}`, a] as const))('%s', async (_name, attack) => {
    await attack.run();
  });
});
