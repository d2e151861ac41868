import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passingReport } from '../report/sample-reports.js';
import { registration } from '../support/registration.js';
import { formClient } from './form-client.js';
import { type Harness, startHarness } from './harness.js';

// An account session lasts while its token does: revoked, the next page sends the browser to sign in.

let h: Harness;
beforeAll(async () => {
  h = await startHarness(passingReport);
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe('an account session in the console', { timeout: 120_000 }, () => {
  it('sees its own providers, and ends once its token is revoked', async () => {
    const created = await h.api('POST', '/api/v1/admin/accounts', { name: 'Session Ltd' });
    const { token, jti } = created.json['token'] as { token: string; jti: string };
    expect(
      (await h.api('POST', '/api/v1/providers/register', registration({ slug: 'session-kitchen' }), token)).status,
    ).toBe(201);
    const client = formClient(h.url);
    const { cookie, location } = await client.signIn(token);
    expect(location).toBe('/console/providers');
    const list = await client.get('/console/providers', cookie);
    expect(list.status).toBe(200);
    expect(list.text).toContain('session-kitchen');
    expect(list.text).toContain('Signed in as account Session Ltd');
    expect(list.text).not.toContain(token);

    expect((await h.api('POST', `/api/v1/admin/tokens/${jti}/revoke`)).status).toBe(200);
    const after = await client.get('/console/providers', cookie);
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/console/sign-in');
    const again = await client.submitSignIn(token);
    expect(again.answer.status).toBe(401);
    expect(again.answer.text).toContain('the API does not accept this token');
  });
});
