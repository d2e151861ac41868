import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookAddress } from '../../src/cli/commands/send-event.js';
import type { CliIo } from '../../src/cli/io.js';
import { loadContract } from '../../src/contract/load.js';
import { type CoreServer, startCoreServer } from '../../src/server/core-server.js';
import { runCommand } from '../config/cli-io.js';
import { scratchDir } from '../support/scratch.js';
import { sign } from './support/http-client.js';

const SECRET = 'whsec_cli_canary';
let dir: string;
let server: CoreServer;

beforeAll(async () => {
  dir = await scratchDir('cli');
  server = await startCoreServer({
    host: '127.0.0.1',
    port: 0,
    dataDir: dir,
    contract: await loadContract(),
    secretFor: (s) => (s === 'demo' ? SECRET : undefined),
  });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Run one command in-process with captured output; the lead wires these into program.ts. */
async function cli(
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin = '',
): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const io: CliIo = {
    stdout,
    stderr,
    stdin: Readable.from([Buffer.from(stdin)]),
    env,
    cwd: dir,
    writeFile: async () => undefined,
  };
  let code = -1;
  try {
    code = (await runCommand(io, args)) ?? -1;
  } catch (e) {
    err += (e as Error).message;
    code = 2;
  }
  return { code, out, err };
}

describe('provcert sign', () => {
  it('prints the hex HMAC of the exact bytes of a file and of stdin, noting a trailing newline', async () => {
    const bytes = '{"a": 1}\n';
    await writeFile(join(dir, 'body.json'), bytes);
    const fromFile = await cli(['sign', 'body.json'], { SERVICE_WEBHOOK_SECRET: SECRET });
    expect(fromFile.out.trim()).toBe(sign(SECRET, bytes));
    expect(fromFile.err).toMatch(/ends with a newline/);
    const fromStdin = await cli(['sign', '--secret-env', 'MY_SECRET', '-'], { MY_SECRET: SECRET }, '{"a":1}');
    expect(fromStdin.out.trim()).toBe(sign(SECRET, '{"a":1}'));
    expect(fromStdin.out + fromStdin.err).not.toContain(SECRET);
  });

  it('fails with a usage error naming the missing variable', async () => {
    const r = await cli(['sign', '-'], {});
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/SERVICE_WEBHOOK_SECRET is not set/);
  });
});

describe('provcert send-event', () => {
  it('posts a signed event that the core accepts', async () => {
    const r = await cli(
      ['send-event', '--to', server.url, '--slug', 'demo', '--status', 'cancelled', '--action-id', 'A-9'],
      { SERVICE_WEBHOOK_SECRET: SECRET },
    );
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/→ 200 \{"success":true\}/);
    expect(server.all().at(-1)?.event).toMatchObject({ actionId: 'A-9', newStatus: 'CANCELLED', providerSlug: 'demo' });
    expect(r.out).not.toContain(SECRET);
  });

  it('exits 1 and prints the answer when the core rejects it', async () => {
    const r = await cli(['send-event', '--to', server.url, '--slug', 'demo'], {
      SERVICE_WEBHOOK_SECRET: 'wrong-secret',
    });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/→ 401 .*UNAUTHORIZED/);
  });

  it('builds the webhook address from a core address, /api/v1, or a full webhook URL', () => {
    expect(webhookAddress('http://h:1', 'demo')).toBe('http://h:1/api/v1/webhooks/demo');
    expect(webhookAddress('http://h:1/api/v1/', 'demo')).toBe('http://h:1/api/v1/webhooks/demo');
    expect(webhookAddress('http://h:1/api/v1/webhooks/x', 'demo')).toBe('http://h:1/api/v1/webhooks/x');
  });
});
