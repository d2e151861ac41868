import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/io.js';
import { UsageError } from '../../../src/model/errors.js';
import { FAULTS } from '../../../src/reference-provider/index.js';
import { runCommand } from '../../support/cli-io.js';

const CREDENTIAL = 'cli-canary-credential-5d1e';
const SECRET = 'cli-canary-webhook-secret-8b0f';

function recorder(): { stream: Writable; text: () => string; onWrite: (listener: () => void) => void } {
  let text = '';
  const listeners: (() => void)[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString();
      for (const l of listeners) l();
      callback();
    },
  });
  return { stream, text: () => text, onWrite: (l) => listeners.push(l) };
}

function harness(env: NodeJS.ProcessEnv) {
  const stdout = recorder();
  const stderr = recorder();
  const io: CliIo = {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: Readable.from([]),
    env,
    cwd: process.cwd(),
    writeFile: async () => undefined,
  };
  // Stands for SIGINT/SIGTERM, which main turns into this abort.
  const signal = new AbortController();
  const stop = (): void => signal.abort('SIGTERM');
  const exits: number[] = [];
  const run = async (...args: string[]): Promise<void> => {
    const code = await runCommand(io, ['mock-provider', ...args], signal.signal);
    if (code !== undefined) exits.push(code);
  };
  return { run, stdout, stderr, stop, exits };
}

/** Resolves with the first stdout line once it is written. */
function firstLine(rec: ReturnType<typeof recorder>): Promise<string> {
  return new Promise((resolve) => {
    const check = (): void => {
      const line = rec.text().split('\n')[0];
      if (rec.text().includes('\n') && line !== undefined) resolve(line);
    };
    rec.onWrite(check);
    check();
  });
}

describe('provcert mock-provider', () => {
  it('--list-faults prints one line per fault with its check id, without needing secrets', async () => {
    const h = harness({});
    await h.run('--list-faults');
    const lines = h.stdout.text().trim().split('\n');
    expect(lines).toHaveLength(Object.keys(FAULTS).length);
    expect(lines.find((l) => l.startsWith('webhook-reserialized '))).toMatch(
      /^webhook-reserialized\s+webhook\s+the event signature covers/,
    );
    expect(h.exits).toEqual([0]);
  });

  it.each([
    [
      'no credential',
      { SERVICE_WEBHOOK_SECRET: SECRET },
      [],
      /missing provider credential: the environment variable PROVIDER_API_KEY is not set/,
    ],
    [
      '--webhook-url without the secret that signs',
      { PROVIDER_API_KEY: CREDENTIAL },
      ['--webhook-url', 'http://127.0.0.1:1/api/v1/webhooks/demo-kitchen'],
      /--webhook-url needs the webhook secret to sign the events: the environment variable SERVICE_WEBHOOK_SECRET is not set/,
    ],
  ])('refuses to start: %s', async (_name, env, args, message) => {
    const h = harness(env);
    const error = await h.run('--port', '0', ...args).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(message);
  });

  it('starts without SERVICE_WEBHOOK_SECRET when no webhook is sent, and says so', async () => {
    const h = harness({ PROVIDER_API_KEY: CREDENTIAL });
    const running = h.run('--port', '0');
    const line = await firstLine(h.stdout);
    expect(line).toMatch(/; webhooks: not sent \(no --webhook-url\)\)$/);
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
    expect((await fetch(`${url}/health`, { headers: { 'x-provider-api-key': CREDENTIAL } })).status).toBe(200);
    h.stop();
    await running;
    expect(h.exits).toEqual([0]);
  });

  it('names where signed webhooks go when --webhook-url and the secret are given', async () => {
    const h = harness({ PROVIDER_API_KEY: CREDENTIAL, SERVICE_WEBHOOK_SECRET: SECRET });
    const running = h.run('--port', '0', '--webhook-url', 'http://127.0.0.1:1/api/v1/webhooks/demo-kitchen');
    expect(await firstLine(h.stdout)).toMatch(
      /; webhooks: signed and sent to http:\/\/127\.0\.0\.1:1\/api\/v1\/webhooks\/demo-kitchen\)$/,
    );
    h.stop();
    await running;
    expect(h.stdout.text() + h.stderr.text()).not.toContain(SECRET);
  });

  it.each([
    [['--fault', 'no-such-fault'], /^unknown fault no-such-fault$/],
    [['--fault', 'quote-totl-wrong'], /^unknown fault quote-totl-wrong \(did you mean quote-total-wrong\?\)$/],
    [['--auth', 'PASSWORD'], /not an auth method/],
    [['--port', 'eighty'], /--port/],
    [['--capabilities', 'METADATA,TELEPORT'], /unknown capability TELEPORT/],
    [['--quote-ttl', '-1'], /--quote-ttl/],
    [['--variant', 'chatty'], /--variant "chatty" is not a variant; use standard, minimal, noisy/],
  ])('rejects bad flags %j with a UsageError', async (args, message) => {
    const h = harness({ PROVIDER_API_KEY: CREDENTIAL, SERVICE_WEBHOOK_SECRET: SECRET });
    const error = await h.run('--port', '0', ...args).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(message);
  });

  it('serves with credentials from the named variables, prints its URL and faults (no secrets), and stops cleanly', async () => {
    const h = harness({ MY_KEY: CREDENTIAL, MY_SECRET: SECRET });
    const running = h.run(
      '--port',
      '0',
      '--auth',
      'bearer',
      '--credential-env',
      'MY_KEY',
      '--webhook-secret-env',
      'MY_SECRET',
      '--fault',
      'payment-invented,missing-next-action',
      '--capabilities',
      'METADATA,HEALTH,CATALOG',
      '--quote-ttl',
      '7',
    );
    const line = await firstLine(h.stdout);
    expect(line).toMatch(
      /listening on http:\/\/127\.0\.0\.1:\d+ \(auth BEARER_TOKEN; faults: payment-invented, missing-next-action; webhooks: not sent \(no --webhook-url\)\)/,
    );
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
    const info = await fetch(`${url}/provider-info`, { headers: { authorization: `Bearer ${CREDENTIAL}` } });
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({
      authMethod: 'BEARER_TOKEN',
      capabilities: ['METADATA', 'HEALTH', 'CATALOG'],
    });
    expect((await fetch(`${url}/provider-info`)).status).toBe(401);

    h.stop();
    await running;
    expect(h.exits).toEqual([0]);
    const output = h.stdout.text() + h.stderr.text();
    expect(output).not.toContain(CREDENTIAL);
    expect(output).not.toContain(SECRET);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });

  it('--variant serves that conforming variant and names it', async () => {
    const h = harness({ PROVIDER_API_KEY: CREDENTIAL, SERVICE_WEBHOOK_SECRET: SECRET });
    const running = h.run('--port', '0', '--variant', 'minimal');
    const line = await firstLine(h.stdout);
    expect(line).toMatch(/\(auth API_KEY; variant minimal; faults: none;/);
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
    const health = (await (
      await fetch(`${url}/health`, { headers: { 'x-provider-api-key': CREDENTIAL } })
    ).json()) as Record<string, unknown>;
    expect(health.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(health.details).toBeUndefined();
    h.stop();
    await running;
  });

  it('reports a port in use as a UsageError', async () => {
    const first = harness({ PROVIDER_API_KEY: CREDENTIAL, SERVICE_WEBHOOK_SECRET: SECRET });
    const running = first.run('--port', '0');
    const port = /:(\d+) /.exec(await firstLine(first.stdout))?.[1] ?? '';
    try {
      const second = harness({ PROVIDER_API_KEY: CREDENTIAL, SERVICE_WEBHOOK_SECRET: SECRET });
      const error = await second.run('--port', port).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(new RegExp(`port ${port} .*already in use`));
    } finally {
      first.stop();
      await running;
    }
  });
});
