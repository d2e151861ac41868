import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunReport } from '../../../src/model/report.js';
import { failingReport } from '../../report/sample-reports.js';
import { storedReport } from '../../report/stored-report.js';
import { type ClockedCli, startClockedCli } from '../../support/cli-clock.js';
import { freePort } from '../../support/ports.js';

/*
 * In-process (test/support/cli-clock.ts): the replays' webhook waits pass on a manual clock. replay.e2e.test.ts
 * runs replay through the built CLI.
 */
// Secrets of the operator replaying: a forged report names them; none may leave this machine on its word.
const OPERATOR_SECRET = 'operator-secret-5b1d0e';
const ADMIN_TOKEN = 'admin-token-c93f27';
const MY_KEY = 'my-own-provider-key-71aa';

/** A server on loopback that records every request, standing in for an attacker's address. */
interface Capture {
  url: string;
  seen: { method: string; url: string; headers: IncomingHttpHeaders }[];
  server: Server;
}

async function startCapture(): Promise<Capture> {
  const seen: Capture['seen'] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"NOT_FOUND","message":"no"}}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, seen, server };
}

const everything = (c: Capture): string => JSON.stringify(c.seen);

describe('provcert replay of a forged report: the report names targets, the person decides them (issue 25)', () => {
  let capture: Capture;
  let dir = '';
  let fifo = '';
  let webhookPort = 0;
  let clocked: ClockedCli & { stop(): void };
  const runCli: ClockedCli['runCli'] = (args, options) => clocked.runCli(args, options);

  /** A report as an attacker would send it: their address, the operator's variables and a file to read. */
  async function forged(source: Record<string, string>): Promise<string> {
    const report: RunReport = storedReport(failingReport());
    report.provider.baseUrl = capture.url;
    report.inputs = {
      ...report.inputs,
      baseUrl: capture.url,
      authMethod: 'API_KEY',
      credentialSource: source as RunReport['inputs']['credentialSource'],
      webhookSecretSource: { kind: 'env', name: 'PROVCERT_ADMIN_TOKEN' },
      local: true,
      webhookPort,
      timeoutMs: 2000,
      seed: 'forged',
    };
    const path = join(dir, `forged-${source['kind']}.json`);
    await writeFile(path, JSON.stringify(report));
    return path;
  }

  beforeAll(async () => {
    clocked = startClockedCli();
    capture = await startCapture();
    webhookPort = await freePort();
    dir = await mkdtemp(join(tmpdir(), 'provcert-replay-forged-'));
    // Reading a FIFO nobody writes to blocks for ever: a replay that opened the report's file would hang.
    fifo = join(dir, 'operator-file');
    execFileSync('mkfifo', [fifo]);
  });
  afterAll(async () => {
    clocked.stop();
    await new Promise((resolve) => capture.server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    capture.seen.length = 0;
  });

  const operatorEnv = { OPERATOR_SECRET, PROVCERT_ADMIN_TOKEN: ADMIN_TOKEN };
  const NAMED = [
    'an environment variable of the operator',
    "the core's admin token variable",
    'a file of the operator',
  ];
  const sources = (): [string, Record<string, string>][] => [
    ['', { kind: 'env', name: 'OPERATOR_SECRET' }],
    ['', { kind: 'env', name: 'PROVCERT_ADMIN_TOKEN' }],
    ['', { kind: 'file', path: fifo }],
  ];

  it.each(NAMED.map((named, i) => [named, i] as const))(
    'a report naming %s, replayed without --base-url and --auth: refused, nothing sent, nothing read',
    async (_named, i) => {
      const [, source] = sources()[i] ?? [];
      const path = await forged(source ?? {});
      const r = await runCli(['replay', path], { env: operatorEnv, cwd: dir });
      expect(r.code).toBe(2);
      const [line, hint, ...rest] = r.stderr.trimEnd().split('\n');
      expect(line).toBe(
        `provcert: replay takes the provider's address and auth from you, not from the report: pass --base-url and --auth ` +
          `(the report's run used --base-url ${capture.url} --auth API_KEY ${source?.['kind'] === 'env' ? `--credential-env ${source['name']}` : `--credential-file ${fifo}`} --webhook-secret-env PROVCERT_ADMIN_TOKEN)`,
      );
      expect(hint).toBe('  or pass --trust-report-inputs to contact and read what the report names');
      expect(rest).toEqual([]);
      expect(r.stdout).toBe('');
      expect(capture.seen).toEqual([]);
    },
  );

  it.each(NAMED.map((named, i) => [named, i] as const))(
    'a report naming %s, replayed with my --base-url and --auth: only my own variable is read',
    async (_named, i) => {
      const [, source] = sources()[i] ?? [];
      const path = await forged(source ?? {});
      const mine = ['--base-url', capture.url, '--auth', 'API_KEY', '--local'];

      const unset = await runCli(['replay', path, ...mine], { env: operatorEnv, cwd: dir });
      expect(unset.code).toBe(2);
      expect(unset.stderr.split('\n')[0]).toBe(
        'provcert: missing credential: the environment variable PROVIDER_API_KEY is not set',
      );
      expect(capture.seen).toEqual([]);

      const set = await runCli(['replay', path, ...mine], {
        env: { ...operatorEnv, PROVIDER_API_KEY: MY_KEY },
        cwd: dir,
      });
      expect(set.code).toBe(1);
      expect(capture.seen.length).toBeGreaterThan(0);
      expect(capture.seen.some((r) => r.headers['x-provider-api-key'] === MY_KEY)).toBe(true);
      expect(everything(capture)).not.toContain(OPERATOR_SECRET);
      expect(everything(capture)).not.toContain(ADMIN_TOKEN);
      expect(set.stdout).toContain(
        `the report's run read its credential from ${source?.['kind'] === 'env' ? `the environment variable ${source['name']}` : `the file ${fifo}`}; this replay reads the environment variable PROVIDER_API_KEY`,
      );
      expect(set.stdout).toContain(
        "the report's run read its webhook secret from the environment variable PROVCERT_ADMIN_TOKEN; this replay reads the environment variable SERVICE_WEBHOOK_SECRET",
      );
    },
  );

  it('--trust-report-inputs says what it will contact and read before it does', async () => {
    const path = await forged({ kind: 'env', name: 'OPERATOR_SECRET' });
    const r = await runCli(['replay', path, '--trust-report-inputs'], {
      env: operatorEnv,
      cwd: dir,
    });
    expect(r.stderr.split('\n').slice(0, 5)).toEqual([
      'provcert: this replay would take from the report file, not from you:',
      `  contact ${capture.url}`,
      '  authenticate with API_KEY',
      '  read the credential from the environment variable OPERATOR_SECRET',
      '  read the webhook secret from the environment variable PROVCERT_ADMIN_TOKEN',
    ]);
    // Trusted explicitly: the run goes where the report says, as the person chose.
    expect(capture.seen.some((req) => req.headers['x-provider-api-key'] === OPERATOR_SECRET)).toBe(true);
    expect(r.stdout + r.stderr).not.toContain(OPERATOR_SECRET);
    expect(r.code).toBe(1);
  });

  // Issue 32, item 9: the sender ships a config file with the report, naming their address and my variable.
  const SHIPPED: [string, (folder: string) => { cwd: string; env: Record<string, string> }][] = [
    ['provcert.config.yaml in the working folder', (folder) => ({ cwd: folder, env: {} })],
    ['provcert.config.yaml beside the report, run from its folder', (folder) => ({ cwd: folder, env: {} })],
    [
      'PROVCERT_CONFIG pointing at the shipped file',
      (folder) => ({ cwd: dir, env: { PROVCERT_CONFIG: join(folder, 'provcert.config.yaml') } }),
    ],
  ];
  it.each(SHIPPED.map(([where], i) => [where, i] as const))(
    'a config file not named with --config (%s): not read, nothing sent',
    async (_where, i) => {
      const folder = join(dir, `shipped-${i}`);
      await mkdir(folder, { recursive: true });
      await writeFile(
        join(folder, 'provcert.config.yaml'),
        `baseUrl: ${capture.url}\nauth: API_KEY\ncredentialEnv: OPERATOR_SECRET\nlocal: true\n`,
      );
      const path = await forged({ kind: 'env', name: 'OPERATOR_SECRET' });
      const report = i === 0 ? path : join(folder, 'report.json');
      if (i !== 0) await writeFile(report, await readFile(path, 'utf8'));
      const place = SHIPPED[i]?.[1](folder) ?? { cwd: dir, env: {} };
      const r = await runCli(['replay', report], {
        env: { ...operatorEnv, ...place.env },
        cwd: place.cwd,
      });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^provcert: replay takes the provider's address and auth from you, not from the report/);
      expect(capture.seen).toEqual([]);
    },
  );

  it("my config file's base URL and auth count as mine", async () => {
    const path = await forged({ kind: 'env', name: 'OPERATOR_SECRET' });
    const config = join(dir, 'mine.yaml');
    await writeFile(config, `baseUrl: ${capture.url}\nauth: API_KEY\nlocal: true\n`);
    const r = await runCli(['replay', path, '--config', config], {
      env: { ...operatorEnv, PROVIDER_API_KEY: MY_KEY },
      cwd: dir,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^replaying quote-math, webhook, wrong-credential, errors against http:\/\/127\.0\.0\.1:\d+ /m,
    );
    expect(everything(capture)).toContain(MY_KEY);
    expect(everything(capture)).not.toContain(OPERATOR_SECRET);
  });
});
