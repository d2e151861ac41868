import { spawn } from 'node:child_process';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scratchDir } from '../support/scratch.js';

// Issue 32, item 10: a data dir serve cannot write is one line and exit 2, never a stack trace.

const BIN = join(import.meta.dirname, '../../bin/provcert.js');
/** Root writes through any mode bits: as root the CLI runs as nobody, so a read-only folder is read-only to it. */
const AS_UNPRIVILEGED = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

function serve(dataDir: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--local'], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', CI: '1', PROVCERT_ADMIN_TOKEN: 'admin-token-ro-1234' },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...AS_UNPRIVILEGED,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // A serve that started (the bug being fixed the other way) is stopped; the assertions then fail.
    const timer = setTimeout(() => child.kill('SIGTERM'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) {
    await chmod(join(dir, 'data'), 0o755).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
});

const CASES: { name: string; prepare(dir: string): Promise<string>; says: RegExp }[] = [
  {
    name: 'a read-only data dir',
    async prepare(dir) {
      const dataDir = join(dir, 'data');
      await mkdir(dataDir);
      await chmod(dataDir, 0o555);
      return dataDir;
    },
    says: /the data dir .*data is not writable \(EACCES on .*\); give serve a folder it can write \(--data-dir\)/,
  },
  {
    name: 'a data dir path through a file',
    async prepare(dir) {
      await writeFile(join(dir, 'file'), 'x');
      return join(dir, 'file', 'data');
    },
    // Unprivileged, mkdir may meet the file's permissions (EACCES) before its type (ENOTDIR).
    says: /the data dir .*file\/data is (unusable \(ENOTDIR|not writable \(EACCES) on .*\); give serve a folder it can write \(--data-dir\)/,
  },
];

describe('serve on a data dir it cannot use', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s: one line, exit 2, no stack trace', async (_name, c) => {
    const dir = await scratchDir('serve-read-only');
    made.push(dir);
    await chmod(dir, 0o755);
    const result = await serve(await c.prepare(dir), dir);
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(result.stderr).toMatch(c.says);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });
});
