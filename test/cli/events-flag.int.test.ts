import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEventStream } from '../report/events-support.js';
import { captureIo, runCommand } from '../support/cli-io.js';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('--events when the run cannot finish', () => {
  it('still ends the stream with run-end: FAIL and the error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'provcert-run-events-error-'));
    made.push(dir);
    // The receiver's port is taken: the run throws before its first request.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const { io } = captureIo(dir, { PROVIDER_API_KEY: 'k-123456', SERVICE_WEBHOOK_SECRET: 's-123456' });
      const argv = ['run', '--base-url', 'http://127.0.0.1:9', '--auth', 'API_KEY', '--local'];
      await expect(runCommand(io, [...argv, '--webhook-port', String(port), '--events', 'e.ndjson'])).rejects.toThrow(
        /port/,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
    const lines = parseEventStream(await readFile(join(dir, 'e.ndjson'), 'utf8'));
    expect(lines.at(-1)).toMatchObject({ type: 'run-end', verdict: 'FAIL', error: expect.stringMatching(/port/) });
  });
});
