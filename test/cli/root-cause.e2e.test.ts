import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import { type RunningProvider, startReferenceProvider } from '../../src/reference-provider/index.js';
import { runCli } from '../support/cli.js';
import { freePort } from '../support/ports.js';
import { scratchDir } from '../support/scratch.js';

/**
 * One root cause, one red line: when GET /provider-info cannot tell what applies (refused credential,
 * nothing listening, not JSON), `provcert run` fails one check naming the cause and skips every other
 * one naming it, and guesses no profile. Real CLI, real loopback servers.
 */

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const KEY = 'root-cause-provider-key-4c1d';
const OTHER_KEY = 'root-cause-not-the-key-93ab';
const SECRET = 'root-cause-webhook-secret-7e20';

let reference: RunningProvider;
const servers: Server[] = [];

/** A provider stand-in whose every route answers what `answer` says. */
async function serve(answer: (path: string, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req: IncomingMessage, res) => answer((req.url ?? '/').split('?')[0] ?? '/', res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const html = (res: ServerResponse): void =>
  void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><body>Shop</body></html>');
const healthy = (res: ServerResponse): void =>
  void res
    .writeHead(200, { 'content-type': 'application/json' })
    .end('{"status":"HEALTHY","latencyMs":1,"timestamp":"2026-01-01T00:00:00Z"}');

let addresses: Record<'htmlInfo' | 'website' | 'truncatedInfo' | 'noCapabilities', string>;

beforeAll(async () => {
  reference = await startReferenceProvider({
    authMethod: 'API_KEY',
    credential: KEY,
    webhookSecret: SECRET,
    dataFile: join(await scratchDir('root-cause'), 'data.json'),
  });
  addresses = {
    htmlInfo: await serve((path, res) => (path === '/provider-info' ? html(res) : healthy(res))),
    website: await serve((_path, res) => html(res)),
    truncatedInfo: await serve((path, res) =>
      path === '/provider-info'
        ? void res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"p1","slug":"demo","capab')
        : healthy(res),
    ),
    noCapabilities: await serve((path, res) =>
      path === '/provider-info'
        ? void res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"p1","slug":"demo"}')
        : healthy(res),
    ),
  };
});

afterAll(async () => {
  await reference.close();
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

interface Case {
  name: string;
  baseUrl: () => Promise<string> | string;
  key: string;
  args?: string[];
  /** The one check that fails, and what its message says. */
  carrier: 'metadata' | 'base-url';
  message: RegExp;
  /** What every skipped check says. */
  skip: RegExp;
}

const cases: Case[] = [
  {
    name: 'a credential the provider does not accept',
    baseUrl: () => reference.url,
    key: OTHER_KEY,
    carrier: 'metadata',
    message:
      /^GET \/provider-info answered 401 with every scheme \(.*\): the credential itself is not accepted — fix: check that PROVIDER_API_KEY holds/,
    skip: /^skipped: GET \/provider-info was refused for the credential \(HTTP 401 UNAUTHORIZED\) — see metadata$/,
  },
  {
    name: 'the right credential under the wrong auth header',
    baseUrl: () => reference.url,
    key: KEY,
    args: ['--auth', 'BEARER_TOKEN'],
    carrier: 'metadata',
    message:
      /^GET \/provider-info answered 401 with Authorization: Bearer \(BEARER_TOKEN\) but 200 with x-provider-api-key; .* — fix: use --auth API_KEY/,
    skip: /^skipped: GET \/provider-info was refused for the credential \(HTTP 401 UNAUTHORIZED\) — see metadata$/,
  },
  {
    name: 'nothing listening at the address',
    baseUrl: async () => `http://127.0.0.1:${await freePort()}`,
    key: KEY,
    carrier: 'base-url',
    message: /^the provider is unreachable: GET \/health connection to 127\.0\.0\.1:\d+ refused/,
    skip: /^skipped: the provider could not be reached \(GET \/provider-info: connection to 127\.0\.0\.1:\d+ refused.*\) — see base-url$/,
  },
  {
    name: 'a website at the address',
    baseUrl: () => addresses.website,
    key: KEY,
    carrier: 'base-url',
    message: /^this looks like a frontend address: GET \/health answered HTTP 200 with an HTML page/,
    skip: /^skipped: GET \/provider-info did not answer JSON \(it answered an HTML page \(content-type text\/html\).*\) — see base-url$/,
  },
  {
    name: 'an HTML page for GET /provider-info only',
    baseUrl: () => addresses.htmlInfo,
    key: KEY,
    carrier: 'metadata',
    message: /^GET \/provider-info answered an HTML page \(content-type text\/html\)/,
    skip: /^skipped: GET \/provider-info did not answer JSON \(it answered an HTML page \(content-type text\/html\).*\) — see metadata$/,
  },
  {
    name: 'truncated JSON from GET /provider-info',
    baseUrl: () => addresses.truncatedInfo,
    key: KEY,
    carrier: 'metadata',
    message: /^GET \/provider-info answered truncated or malformed JSON/,
    skip: /^skipped: GET \/provider-info did not answer JSON \(it answered truncated or malformed JSON \(content-type application\/json\)\) — see metadata$/,
  },
  {
    name: 'a provider-info without capabilities (and no --profile or --capabilities)',
    baseUrl: () => addresses.noCapabilities,
    key: KEY,
    carrier: 'metadata',
    message: /^GET \/provider-info does not match the schema/,
    skip: /^skipped: GET \/provider-info does not match the schema and its capabilities cannot be read, so which checks apply is not known — see metadata$/,
  },
];

async function reportValidator() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(
    JSON.parse(await readFile(join(import.meta.dirname, '../../spec/report.schema.json'), 'utf8')) as object,
  );
}

const certify = async (baseUrl: string, key: string, args: string[] = []) => {
  const dir = await scratchDir('root-cause-report');
  const file = join(dir, 'report.json');
  const r = await runCli(
    ['run', '--base-url', baseUrl, '--auth', 'API_KEY', '--local', '--webhook-port', '0', '--json', file, ...args],
    {
      env: { PROVIDER_API_KEY: key, SERVICE_WEBHOOK_SECRET: SECRET },
    },
  );
  return { ...r, report: JSON.parse(await readFile(file, 'utf8')) as RunReport };
};

describe.concurrent('provcert run: one root cause, one red line', () => {
  it.each(cases)('$name', async ({ baseUrl, key, args, carrier, message, skip }) => {
    const { code, stdout, stderr, report } = await certify(await baseUrl(), key, args);
    expect(code, stderr).toBe(1);

    const red = stdout.split('\n').filter((line) => line.startsWith('✗ '));
    expect(red, stdout).toHaveLength(1);
    expect(red[0]).toMatch(new RegExp(`^✗ ${carrier}  `));

    const byId = new Map(report.checks.map((c) => [c.id, c] as const));
    expect(byId.get(carrier)?.status).toBe('fail');
    expect(byId.get(carrier)?.message).toMatch(message);
    const others = report.checks.filter((c: CheckResult) => c.id !== carrier && c.id !== 'base-url');
    expect(others.length).toBeGreaterThan(15);
    for (const check of others) {
      expect(check.status, check.id).toBe('skip');
      expect(check.message, check.id).toMatch(skip);
    }
    // Nothing is guessed from a provider-info that was never read.
    expect(report.provider.profile).toBeUndefined();
    expect(report.provider.fulfillment).toBeUndefined();
    expect(stdout).toContain('profile unknown');
    expect(stdout).not.toMatch(/DISCOVERY_READONLY|is not declared/);
    expect((await reportValidator())(report)).toBe(true);
    expect(stdout + stderr).not.toContain(key);

    // Root cause first: its skips are one line under the red one, none repeats the cause on a line of its own.
    const lines = stdout.split('\n');
    for (const check of others)
      expect(
        lines.some((l) => l.startsWith(`- ${check.id} `)),
        check.id,
      ).toBe(false);
    const under = lines.filter((l) => l.includes('skipped because of this'));
    expect(under).toHaveLength(1);
    const named = /^ {4}↳ (\d+) checks skipped because of this: (.+)$/.exec(under[0] ?? '');
    expect(Number(named?.[1])).toBe(others.length);
    // Named in the order they ended.
    expect(named?.[2]?.split(', ').sort()).toEqual(others.map((c) => c.id).sort());
    const cause = lines.findIndex((l) => l.startsWith(`✗ ${carrier}  `));
    expect(lines.indexOf(under[0] ?? '')).toBeGreaterThan(cause);
    expect(lines.slice(cause + 1, lines.indexOf(under[0] ?? '')).every((l) => l.startsWith('    '))).toBe(true);
    // Recap last: the failure in one line with its requirement, then the verdict and the command to run next.
    const recap = lines.indexOf('Failures (1):');
    expect(recap).toBeGreaterThan(cause);
    expect(lines[recap + 1]).toMatch(
      new RegExp(`^  ✗ ${carrier} \\[[A-Z-]+\\] .+ \\(${others.length} checks skipped because of it\\)$`),
    );
    expect(lines.filter(Boolean).at(-1)).toMatch(
      new RegExp(
        `^Next: fix ${carrier} first \\(${others.length} checks wait on it\\), then run: provcert run --base-url http.* --last-failed$`,
      ),
    );
  });

  it('metadata carries the cause even when --only left it out', async () => {
    const { code, report } = await certify(reference.url, OTHER_KEY, ['--only', 'catalog,health']);
    expect(code).toBe(1);
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ['metadata', 'fail'],
      ['health', 'skip'],
      ['catalog', 'skip'],
    ]);
  });

  it('the right credential still certifies, with the profile read from GET /provider-info', async () => {
    const { report } = await certify(reference.url, KEY, ['--only', 'metadata,catalog']);
    // signature is left out too, but would not apply (API_KEY): it is the skip a full run reports.
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ['metadata', 'pass'],
      ['catalog', 'pass'],
      ['signature', 'skip'],
    ]);
    expect(report.provider.profile).toBe('TRANSACTIONAL');
  });
});
