import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/framework/registry.js';
import type { CliIo } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { suggestedBaseUrl } from '../../src/cli/options.js';
import { credentialDiagnosis } from '../../src/doctor/auth.js';
import { freePort } from '../support/ports.js';
import { scratchDir } from '../support/scratch.js';

const BIN = join(import.meta.dirname, '../../bin/provcert.js');
const KEY = 'small-fixes-provider-key-51c0';
let dir: string;

beforeAll(async () => {
  dir = await scratchDir('small-fixes');
  await writeFile(join(dir, 'offering.json'), '{}');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The whole CLI in-process (main: parsing, exit codes, error lines), with captured streams and a chosen stdin. */
async function cli(args: string[], options: { env?: NodeJS.ProcessEnv; stdin?: string; stdinIsTty?: boolean } = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const stdin = Object.assign(
    Readable.from([Buffer.from(options.stdin ?? '')]),
    options.stdinIsTty ? { isTTY: true } : {},
  );
  const io: CliIo = { stdout, stderr, stdin, env: options.env ?? {}, cwd: dir, writeFile: async () => undefined };
  const code = await main(['node', 'provcert', ...args], io);
  return { code, out, err };
}

describe('a reader that closes the pipe early (provcert list | head)', () => {
  it('ends quietly with exit 0: no EPIPE stack trace', async () => {
    const child = spawn(process.execPath, [BIN, 'list'], {
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Closed before the CLI has even loaded, so its first write meets a closed pipe.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

describe('waiting on a terminal says so (validate, sign)', () => {
  const env = { SERVICE_WEBHOOK_SECRET: 'small-fixes-webhook-secret' };
  it.each([
    [
      'validate, stdin a terminal, no file',
      ['validate', 'Offering'],
      true,
      'reading the payload from stdin (end with Ctrl-D)…\n',
    ],
    [
      'validate, stdin a terminal, -',
      ['validate', 'Offering', '-'],
      true,
      'reading the payload from stdin (end with Ctrl-D)…\n',
    ],
    ['validate, stdin a pipe', ['validate', 'Offering', '-'], false, ''],
    ['validate, a file', ['validate', 'Offering', 'offering.json'], true, ''],
    ['sign, stdin a terminal, no file', ['sign'], true, 'reading the bytes to sign from stdin (end with Ctrl-D)…\n'],
    ['sign, stdin a pipe', ['sign', '-'], false, ''],
    ['sign, a file', ['sign', 'offering.json'], true, ''],
  ])('%s', async (_name, args, tty, notice) => {
    const { err } = await cli(args, { env, stdin: '{}', stdinIsTty: tty });
    expect(err.startsWith(notice)).toBe(true);
    if (notice === '') expect(err).not.toContain('from stdin');
  });
});

describe('did you mean', () => {
  const RUN = ['run', '--base-url', 'http://127.0.0.1:1', '--auth', 'API_KEY'];
  it.each([
    [
      'a schema name with a typo',
      ['validate', 'Ofering', 'offering.json'],
      'provcert: unknown schema "Ofering" (did you mean Offering?); see provcert',
    ],
    [
      'a schema name in the wrong case',
      ['validate', 'offering', 'offering.json'],
      'provcert: unknown schema "offering" (did you mean Offering?); see provcert',
    ],
    [
      'a check id in --only',
      [...RUN, '--only', 'quote-mth'],
      'provcert: --only: unknown check id "quote-mth" (did you mean quote-math?); known ids: ',
    ],
    [
      'a check id in --skip',
      [...RUN, '--skip', 'webhooks'],
      'provcert: --skip: unknown check id "webhooks" (did you mean webhook?); known ids: ',
    ],
    [
      'a fault name',
      ['mock-provider', '--fault', 'quote-totl-wrong'],
      'provcert: unknown fault quote-totl-wrong (did you mean quote-total-wrong?)',
    ],
  ])('%s', async (_name, args, line) => {
    const { code, err } = await cli(args, { env: { PROVIDER_API_KEY: KEY } });
    expect(code).toBe(2);
    expect(err.startsWith(line)).toBe(true);
  });

  it('no suggestion for a name that is not close to any', async () => {
    const { err } = await cli(['run', '--base-url', 'http://127.0.0.1:1', '--auth', 'API_KEY', '--only', 'zzzzzz'], {
      env: { PROVIDER_API_KEY: KEY },
    });
    expect(err).toContain(`unknown check id "zzzzzz"; known ids: ${CHECKS.map((c) => c.id).join(', ')}`);
  });
});

describe('--base-url without a scheme suggests the URL it most likely means', () => {
  it.each<[string, boolean, string | undefined]>([
    ['localhost:3000', false, 'did you mean --base-url http://localhost:3000 --local?'],
    ['localhost:3000', true, 'did you mean --base-url http://localhost:3000?'],
    ['127.0.0.1:8080/api', false, 'did you mean --base-url http://127.0.0.1:8080/api --local?'],
    ['192.168.1.20:3000', false, 'did you mean --base-url http://192.168.1.20:3000 --local?'],
    ['provider.example.com/api', false, 'did you mean --base-url https://provider.example.com/api?'],
    ['ftp://provider.example.com', false, undefined],
    ['', false, undefined],
  ])('%j (--local %s)', (value, local, want) => {
    expect(suggestedBaseUrl(value, local)).toBe(want);
  });

  it('prints the suggestion under the error', async () => {
    const { code, err } = await cli(['run', '--base-url', 'localhost:3000', '--auth', 'API_KEY'], {
      env: { PROVIDER_API_KEY: KEY },
    });
    expect(code).toBe(2);
    expect(err).toBe(
      'provcert: --base-url must be http(s), got localhost:\n  did you mean --base-url http://localhost:3000 --local?\n',
    );
  });
});

describe('run refuses whitespace around the credential exactly as doctor flags it', () => {
  const run = ['run', '--base-url', 'http://127.0.0.1:1', '--auth', 'API_KEY', '--local'];
  it.each([
    ['trailing whitespace', `${KEY} `, 'trailing whitespace'],
    ['a trailing newline', `${KEY}\n`, 'a trailing newline'],
    ['leading whitespace', ` ${KEY}`, 'leading whitespace'],
    ['a line break inside', `${KEY.slice(0, 5)}\n${KEY.slice(5)}`, 'a line break inside'],
  ])('%s', async (_name, value, problem) => {
    const doctor = credentialDiagnosis({ value, source: 'PROVIDER_API_KEY' });
    expect(doctor.status).toBe('fail');
    const { code, err } = await cli(run, { env: { PROVIDER_API_KEY: value } });
    expect(code).toBe(2);
    expect(err).toBe(`provcert: ${doctor.detail}\n  ${doctor.fix ?? ''}\n`);
    expect(err).toContain(problem);
    expect(err).not.toContain(KEY);
  });

  it('a credential file: one trailing newline is an editor artefact, trailing spaces are not', async () => {
    await writeFile(join(dir, 'spaces.txt'), `${KEY}  \n`);
    const { code, err } = await cli([...run, '--credential-file', 'spaces.txt']);
    expect(code).toBe(2);
    expect(err).toContain(
      'provcert: the credential from the file spaces.txt has trailing whitespace (value not shown)',
    );
  });
});

describe('send-event: a delivery failure is exit 1, as its help says', () => {
  it('connection refused → exit 1 with one line', async () => {
    const port = await freePort();
    const env = { SERVICE_WEBHOOK_SECRET: 'small-fixes-secret' };
    const { code, err } = await cli(['send-event', '--to', `http://127.0.0.1:${port}`, '--slug', 'demo'], { env });
    expect(code).toBe(1);
    expect(err).toBe(
      `provcert: could not post to http://127.0.0.1:${port}/api/v1/webhooks/demo: connection refused (is provcert serve running?)\n`,
    );
  });

  it('its help names exit 1 for that', async () => {
    const { out } = await cli(['send-event', '--help']);
    expect(out).toContain('1 otherwise or when not delivered');
  });
});

describe('rule texts cite the decisions file users have', () => {
  it.each(CHECKS.map((c) => [c.id, c.rule] as const))('%s', (_id, rule) => {
    expect(rule).not.toContain('DECISIONS.md');
  });
});
