import { describe, expect, it } from 'vitest';
import { scratchDir } from '../support/scratch.js';
import { spawnServe } from '../support/serve.js';

const ADMIN = 'console-e2e-admin-token-4f1d';

/** The console as the `serve` command mounts it: a real process, signed in over HTTP. */
describe('provcert serve mounts the console', () => {
  it('names the console in its banner and signs the operator in', async () => {
    // test/support/serve.ts: started through spawnCli, ended with the test.
    const serve = await spawnServe(0, await scratchDir('console-e2e'), { env: { PROVCERT_ADMIN_TOKEN: ADMIN } });
    const [, base] = await serve.cli.waitFor(/console:\s+(http:\/\/127\.0\.0\.1:\d+)\/console/);
    expect(base, serve.output()).toBeDefined();

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
