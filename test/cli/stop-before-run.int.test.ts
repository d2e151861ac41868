import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo, runCommand } from '../support/cli-io.js';
import { scratchDir } from '../support/scratch.js';

/**
 * SIGTERM ends a run in every state (issue 34), also before it began: while it loads its config, or while it loads
 * the contract and checks its report paths (where a stuck file system once held it for ever). The signal is the
 * command's AbortSignal, as main hands it SIGINT/SIGTERM; main turns the stop into 143 (report-paths.e2e.test.ts).
 */

let provider: Server;
let url = '';
const requests: string[] = [];
const env = { PROVIDER_API_KEY: 'stop-before-run-key-61d0', SERVICE_WEBHOOK_SECRET: 'stop-before-run-secret-0b3e' };

beforeAll(async () => {
  provider = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => provider.close(() => resolve()));
});

describe('a stop before the run began', () => {
  it.each([
    // Stopped before the command starts: the config is still being read.
    ['while the config loads', (_text: string) => true],
    // Stopped at the line said just before the contract loads and the report paths are checked.
    ['while the report paths are checked', (text: string) => text.includes('--only also runs catalog')],
  ])('%s: one line, no request sent, no report written', async (_state, stopAt) => {
    const dir = await scratchDir('stop-before-run');
    const { io, out, err } = captureIo(dir, env);
    const stop = new AbortController();
    let stderr = '';
    const watch = (chunk: Buffer): void => {
      stderr += chunk.toString();
      if (stopAt(stderr) && !stop.signal.aborted) stop.abort('SIGTERM');
    };
    if (stopAt('')) stop.abort('SIGTERM');
    else io.stderr.on('data', watch);
    const args = ['run', '--base-url', url, '--auth', 'API_KEY', '--local', '--webhook-port', '0'];
    const code = await runCommand(io, [...args, '--only', 'quote-math', '--json', 'report.json'], stop.signal);
    expect(code).toBe(1);
    expect(stop.signal.aborted).toBe(true);
    expect(err().trimEnd().split('\n').at(-1)).toBe(
      'provcert: stopped by SIGTERM before the run began; no request was sent',
    );
    // The second state is reached: its line came before the stop.
    expect(err().includes('--only also runs catalog')).toBe(stopAt('') === false);
    expect(out()).toBe('');
    expect(requests).toEqual([]);
    await expect(stat(join(dir, 'report.json'))).rejects.toThrow();
  });
});
