import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import {
  type FaultName,
  REFERENCE_SLUG,
  type RunningProvider,
  startReferenceProvider,
} from '../../src/reference-provider/index.js';
import { runCli, spawnCli } from '../support/cli.js';
import { captureIo } from '../support/cli-io.js';
import { freePort } from '../support/ports.js';
import { scratchDir } from '../support/scratch.js';

const env = { PROVIDER_API_KEY: 'paths-key-5521', SERVICE_WEBHOOK_SECRET: 'paths-secret-8813' };

let provider: RunningProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function start(faults: FaultName[] = []): Promise<{ provider: RunningProvider; webhookPort: number }> {
  const webhookPort = await freePort();
  provider = await startReferenceProvider({
    authMethod: 'API_KEY',
    credential: env.PROVIDER_API_KEY,
    webhookSecret: env.SERVICE_WEBHOOK_SECRET,
    faults,
    webhookUrl: `http://127.0.0.1:${webhookPort}/api/v1/webhooks/${REFERENCE_SLUG}`,
    dataFile: join(await scratchDir('paths'), 'data.json'),
  });
  return { provider, webhookPort };
}

describe('report paths of provcert run are checked before the run', () => {
  it('junit: reports/junit.xml in the config file (the README example) creates reports/ next to the file', async () => {
    const { provider: p, webhookPort } = await start();
    const dir = await scratchDir('config-paths');
    await writeFile(
      join(dir, 'provcert.config.yaml'),
      [
        `baseUrl: ${p.url}`,
        'auth: API_KEY',
        'local: true',
        `webhookPort: ${webhookPort}`,
        'only: [health]',
        'junit: reports/junit.xml',
        '',
      ].join('\n'),
    );
    const r = await runCli(['run'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(await readFile(join(dir, 'reports', 'junit.xml'), 'utf8')).toMatch(/<testcase classname="provcert\.health"/);
  });

  it.each([
    [
      '--html naming a directory',
      (dir: string) => ['--html', dir],
      /^provcert: cannot write the html report to .*: it is a directory; name a file inside it$/,
    ],
    [
      '--junit under a file',
      (dir: string) => ['--junit', join(dir, 'a-file', 'junit.xml')],
      /^provcert: cannot write the junit report to .*junit\.xml: a part of its folder path is a file, not a folder$/,
    ],
    [
      // Node 20's recursive mkdir loops for ever under /proc (issue 34): the folders are made one level at a time.
      '--json under /proc, where no folder can be made',
      () => ['--json', '/proc/nope/x.json'],
      /^provcert: cannot write the json report to \/proc\/nope\/x\.json: its folder cannot be created \(ENOENT\)$/,
    ],
  ])('%s: exit 2 in one line, before any request reaches the provider', async (_name, flags, message) => {
    const { provider: p, webhookPort } = await start();
    const dir = await scratchDir('bad-paths');
    await writeFile(join(dir, 'a-file'), 'a file, not a folder');
    await mkdir(join(dir, 'sub'));
    const run = [
      'run',
      '--base-url',
      p.url,
      '--auth',
      'API_KEY',
      '--local',
      '--webhook-port',
      String(webhookPort),
      '--json',
      join(dir, 'ok.json'),
    ];
    const r = await runCli([...run, ...flags(dir)], { env });
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.trimEnd()).toMatch(message);
    expect(p.requests).toEqual([]);
  });
});

describe('a report path or a silent provider never holds the run past a signal', () => {
  it('--json naming a FIFO without a reader: exit 2 in one line at once, not a wait for a reader', async () => {
    const { provider: p, webhookPort } = await start();
    const dir = await scratchDir('fifo-path');
    const fifo = join(dir, 'report.fifo');
    execFileSync('mkfifo', [fifo]);
    const run = ['run', '--base-url', p.url, '--auth', 'API_KEY', '--local', '--webhook-port', String(webhookPort)];
    const r = await runCli([...run, '--json', fifo], { env, timeoutMs: 20_000 });
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd()).toBe(`provcert: cannot write the json report to ${fifo}: it cannot be written (ENXIO)`);
    expect(p.requests).toEqual([]);
  });

  it('SIGTERM while GET /provider-info waits on a silent server: exit 143 at once, the stop said', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const webhookPort = await freePort();
      const cli = spawnCli(
        [
          'run',
          '--base-url',
          `http://127.0.0.1:${port}`,
          '--auth',
          'API_KEY',
          '--local',
          '--webhook-port',
          String(webhookPort),
        ],
        { env },
      );
      await cli.waitFor(/reading GET \/provider-info first/);
      cli.signal('SIGTERM');
      const timer = setTimeout(() => cli.signal('SIGKILL'), 10_000);
      const exit = await cli.exit;
      clearTimeout(timer);
      expect(exit.signal).toBeNull();
      expect(exit.code).toBe(143);
      expect(cli.stdout()).toContain('The run was stopped (SIGTERM)');
    } finally {
      silent.close();
    }
  });
});

describe('a report that cannot be written late never hides the verdict', () => {
  it.each([
    ['a passing run', 0, [] as FaultName[]],
    ['a failing run', 1, ['health-route-missing'] as FaultName[]],
  ] as const)(
    '%s exits %i (its verdict) and names the report it could not write on stderr',
    async (_name, code, faults) => {
      const { provider: p, webhookPort } = await start(faults);
      const dir = await scratchDir('late-write');
      const { io, err } = captureIo(dir, env);
      // The path is fine before the run; the disk fills up afterwards.
      const failingIo = { ...io, writeFile: () => Promise.reject(new Error('ENOSPC: no space left on device')) };
      const run = [
        'run',
        '--base-url',
        p.url,
        '--auth',
        'API_KEY',
        '--local',
        '--webhook-port',
        String(webhookPort),
        '--only',
        'health',
        '--junit',
        'junit.xml',
      ];
      const exit = await main(['node', 'provcert', ...run], failingIo);
      expect(err()).toContain(
        'provcert: could not write the junit report to junit.xml: ENOSPC: no space left on device\n',
      );
      expect(exit).toBe(code);
    },
  );
});
