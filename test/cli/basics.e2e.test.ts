import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolVersion } from '../../src/util/package-root.js';
import { runCli } from '../support/cli.js';
import { captureIo, runCommand } from '../support/cli-io.js';

const payloads = join(import.meta.dirname, '../../fixtures/payloads');

describe('provcert CLI basics', () => {
  it('prints help and version with exit 0', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: provcert/);
    for (const command of ['run', 'validate', 'demo', 'list', 'replay', 'serve', 'mock-provider', 'doctor', 'init'])
      expect(help.stdout).toContain(command);
    const version = await runCli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toBe(`${toolVersion}\n`);
  });

  it('answers --version alone without loading the CLI, exactly as the full program does', async () => {
    const fast = await runCli(['-V']);
    const { io, out } = captureIo(process.cwd());
    await runCommand(io, ['--version']).catch(() => undefined); // commander ends --version by throwing its exit
    expect(fast.stdout).toBe(out());
    expect(out()).toBe(`${toolVersion}\n`);
  });

  it('rejects an unknown command with exit 2', async () => {
    const r = await runCli(['certify-everything']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command/);
  });
});

describe('provcert validate', () => {
  it('lists the schema names', async () => {
    const r = await runCli(['validate', '--list']);
    expect(r.code).toBe(0);
    for (const name of ['ProviderInfo', 'Offering', 'NormalizedQuote', 'NormalizedWebhookEvent', 'ErrorCode'])
      expect(r.stdout.split('\n')).toContain(name);
  });

  it('exits 0 on a valid payload from a file', async () => {
    const r = await runCli(['validate', 'ErrorResponse', '-'], {
      input: '{"code":"NOT_FOUND","message":"no such offering"}',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^valid ErrorResponse/);
  });

  it('exits 1 and explains each problem with pointer, rule and the value found', async () => {
    const offering = {
      id: 'o1',
      providerId: 'p',
      offeringCode: 'C1',
      title: 'Soup',
      basePrice: '12.50',
      description: null,
    };
    const r = await runCli(['validate', 'Offering', '-'], { input: JSON.stringify(offering) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('/basePrice must be integer (found string "12.50")');
    expect(r.stdout).toContain('/description must be string (found null)');
  });

  it.each([
    [['validate', 'NoSuchSchema', '-'], '{}', /unknown schema "NoSuchSchema"/],
    // A misspelt word of a name still gets a did-you-mean (issue 34).
    [
      ['validate', 'Helth', '-'],
      '{}',
      /^provcert: unknown schema "Helth" \(did you mean HealthCheckResult\?\); see provcert validate --list\n$/,
    ],
    [['validate', 'Offering', '-'], '{"id": "truncated', /not valid JSON/],
    [['validate', 'Offering', join(payloads, 'does-not-exist.json')], '', /cannot read .*no such file/],
  ])('exits 2 with one clear line for %j', async (args, input, message) => {
    const r = await runCli(args, { input });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe('provcert run: configuration errors', () => {
  it.each([
    [['run', '--auth', 'API_KEY'], {}, /missing --base-url/],
    [['run', '--base-url', 'not a url', '--auth', 'API_KEY'], {}, /is not a URL/],
    [['run', '--base-url', 'https://p.example', '--auth', 'PASSWORD'], {}, /is not an auth method/],
    [
      ['run', '--base-url', 'https://p.example', '--auth', 'api-key'],
      {},
      /missing credential: the environment variable PROVIDER_API_KEY is not set/,
    ],
    [
      ['run', '--base-url', 'https://p.example', '--auth', 'bearer', '--only', 'catalog,quote-maths'],
      { PROVIDER_API_KEY: 'k' },
      /unknown check id "quote-maths" \(did you mean quote-math\?\); known ids: base-url, metadata/,
    ],
  ])('%j exits 2 with one line', async (args, env, message) => {
    const r = await runCli(args, { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
