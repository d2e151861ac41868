import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookAddress } from '../../../src/cli/commands/send-event.js';
import { loadContract } from '../../../src/contract/load.js';
import { type CoreServer, startCoreServer } from '../../../src/server/core-server.js';
import { sign } from '../../server/support/http-client.js';
import { type MainResult, runMain } from '../../support/cli-io.js';
import { freePort } from '../../support/ports.js';
import { scratchDir } from '../../support/scratch.js';

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

/** The whole CLI in-process through main, so exit codes are the ones a user sees. */
function cli(args: string[], env: NodeJS.ProcessEnv, stdin = ''): Promise<MainResult> {
  return runMain(dir, args, { env, stdin });
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

describe('send-event: a delivery failure is exit 1, as its help says', () => {
  it('connection refused → exit 1 with one line', async () => {
    const port = await freePort();
    const r = await cli(['send-event', '--to', `http://127.0.0.1:${port}`, '--slug', 'demo'], {
      SERVICE_WEBHOOK_SECRET: SECRET,
    });
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `provcert: could not post to http://127.0.0.1:${port}/api/v1/webhooks/demo: connection refused (is provcert serve running?)\n`,
    );
  });

  it('its help names exit 1 for that', async () => {
    const r = await cli(['send-event', '--help'], {});
    expect(r.code).toBe(0);
    expect(r.out).toContain('1 otherwise or when not delivered');
  });
});
