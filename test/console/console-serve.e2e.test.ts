import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '../../bin/provcert.js');
const ADMIN = 'console-e2e-admin-token-4f1d';

let serve: ChildProcess | undefined;
let dataDir = '';
afterAll(async () => {
  if (serve && serve.exitCode === null) {
    const exited = new Promise((resolve) => serve?.once('exit', resolve));
    serve.kill('SIGTERM');
    await exited;
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The console as the `serve` command mounts it: a real process, signed in over HTTP. */
describe('provcert serve mounts the console', () => {
  it('names the console in its banner and signs the operator in', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'provcert-console-e2e-'));
    serve = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--local'], {
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', PROVCERT_ADMIN_TOKEN: ADMIN },
    });
    let output = '';
    serve.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    serve.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const banner = /console:\s+(http:\/\/127\.0\.0\.1:\d+)\/console/;
    // Up to 30 s: a loaded machine starts node slowly.
    for (let i = 0; i < 300 && !banner.test(output); i++) await new Promise((r) => setTimeout(r, 100));
    const base = banner.exec(output)?.[1];
    expect(base, output).toBeDefined();

    const form = await fetch(`${base}/console/sign-in`);
    const formCookie = (form.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
    const signIn = await fetch(`${base}/console/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: formCookie },
      body: new URLSearchParams({ csrf, token: ADMIN }).toString(),
    });
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get('location')).toBe('/console/providers');
    const session = (signIn.headers.getSetCookie().find((c) => c.startsWith('provcert_console=')) ?? '').split(';')[0];
    const providers = await fetch(`${base}/console/providers`, { headers: { cookie: session ?? '' } });
    expect(providers.status).toBe(200);
    expect(await providers.text()).toContain('No provider matches.');
  });
});
