import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../support/cli-io.js';
import { scratchDir } from '../support/scratch.js';

const BIN = join(import.meta.dirname, '../../bin/provcert.js');
let dir: string;

beforeAll(async () => {
  dir = await scratchDir('cli-io');
  await writeFile(join(dir, 'offering.json'), '{}');
});

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
  const env = { SERVICE_WEBHOOK_SECRET: 'cli-io-webhook-secret' };
  const PAYLOAD = 'reading the payload from stdin (end with Ctrl-D)…\n';
  const BYTES = 'reading the bytes to sign from stdin (end with Ctrl-D)…\n';
  it.each([
    ['validate, stdin a terminal, no file', ['validate', 'Offering'], true, PAYLOAD],
    ['validate, stdin a terminal, -', ['validate', 'Offering', '-'], true, PAYLOAD],
    ['validate, stdin a pipe', ['validate', 'Offering', '-'], false, undefined],
    ['validate, a file', ['validate', 'Offering', 'offering.json'], true, undefined],
    ['sign, stdin a terminal, no file', ['sign'], true, BYTES],
    ['sign, stdin a pipe', ['sign', '-'], false, undefined],
    ['sign, a file', ['sign', 'offering.json'], true, undefined],
  ])('%s', async (_name, args, tty, notice) => {
    const { err } = await runMain(dir, args, { env, stdin: '{}', stdinIsTty: tty });
    if (notice === undefined) expect(err).not.toContain('from stdin');
    else expect(err.startsWith(notice), err).toBe(true);
  });
});
