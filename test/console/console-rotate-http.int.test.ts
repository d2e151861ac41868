import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passingReport } from '../report/sample-reports.js';
import { type Answer, type FormClient, fieldOf, formClient } from './form-client.js';
import { ADMIN, type Harness, startHarness } from './harness.js';

const CONFIGURED = 'configured-kitchen';
const ROTATE = '/console/providers/demo-kitchen/rotate-webhook-secret';

let h: Harness;
let client: FormClient;
let providerToken = '';
let firstSecret = '';
const logLines: string[] = [];

let otherToken = '';
let otherSecret = '';

/** Who rotated the slug's secret, oldest first, as the operations log records it ('admin' or 'provider'). */
async function rotatedBy(slug: string): Promise<string[]> {
  const answer = await h.api('GET', `/api/v1/admin/logs/events?kind=secret-rotation&slug=${slug}`);
  expect(answer.status).toBe(200);
  return (answer.json['data'] as Record<string, unknown>[]).map((e) => String(e['actor']));
}
const rotations = async (slug: string): Promise<number> => (await rotatedBy(slug)).length;

/** The sessions that may rotate demo-kitchen from the console: the operator's and the provider's own. */
const WHO: [string, () => string][] = [
  ['operator', () => ADMIN],
  ['provider', () => providerToken],
];

/** The rotate form of a freshly loaded provider page: the session's CSRF token and the form's own token. */
async function rotateForm(cookie: string, slug = 'demo-kitchen'): Promise<{ csrf: string; once: string }> {
  const page = await client.get(`/console/providers/${slug}`, cookie);
  expect(page.status).toBe(200);
  const form = /<form[^>]*rotate-webhook-secret[\s\S]*?<\/form>/.exec(page.text)?.[0] ?? '';
  return { csrf: fieldOf(form, 'csrf'), once: fieldOf(form, 'once') };
}

const secretOf = (page: Answer): string => /<code id="new-secret"[^>]*>([^<]*)</.exec(page.text)?.[1] ?? '';

beforeAll(async () => {
  h = await startHarness(passingReport, {
    // The overlap is an explicit setting (default 0, the contract's reading); these tests show the window.
    flags: { slug: CONFIGURED, webhookSecretOverlap: '600' },
    log: (line) => logLines.push(line),
  });
  client = formClient(h.url);
  const demo = await h.register({});
  providerToken = demo.token;
  firstSecret = demo.secret;
  const other = await h.register({ slug: 'other-kitchen', name: 'Other Kitchen' });
  otherToken = other.token;
  otherSecret = other.secret;
});

afterAll(async () => {
  await h?.close();
});

describe('rotating a webhook secret from the console', () => {
  it('answers the post with the new secret once, on a no-store page, and a re-sent post rotates and shows nothing', async () => {
    const { cookie } = await client.signIn(ADMIN);
    const form = await rotateForm(cookie);
    expect(form.once).toMatch(/^[\w-]{43}$/);
    expect(form.once).not.toBe(form.csrf);

    const answer = await client.postForm(ROTATE, { ...form, confirm: 'yes' }, cookie);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('location')).toBeNull();
    expect(answer.headers.getSetCookie()).toEqual([]);
    const secret = secretOf(answer);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(secret).not.toBe(firstSecret);
    expect(answer.text).toMatch(/accepted until <strong id="previous-valid-until">\d{4}-\d\d-\d\dT[\d:.]+Z<\/strong>/);
    expect(answer.text).toContain('href="/console/providers/demo-kitchen"');
    expect(await rotations('demo-kitchen')).toBe(1);
    expect(await h.sendEvent('demo-kitchen', secret)).toBe(200);

    // The browser re-sends the same form on reload or back: the spent token rotates nothing and shows nothing.
    const again = await client.postForm(ROTATE, { ...form, confirm: 'yes' }, cookie);
    expect(again.status).toBe(409);
    expect(again.text).toContain('already sent');
    expect(again.text).not.toContain(secret);
    expect(await rotations('demo-kitchen')).toBe(1);
    // No later page holds it: the provider page, and every serve log line.
    expect((await client.get('/console/providers/demo-kitchen', cookie)).text).not.toContain(secret);
    expect(logLines.some((l) => l.includes('webhook secret of demo-kitchen rotated'))).toBe(true);
    for (const line of logLines) {
      expect(line).not.toContain(secret);
      expect(line).not.toContain(firstSecret);
    }
  });

  it.each(WHO)(
    'refuses a post without the CSRF token, without the confirmation, or with a form token it did not issue for that slug (%s session)',
    async (_who, token) => {
      const { cookie } = await client.signIn(token());
      const before = await rotations('demo-kitchen');
      const form = await rotateForm(cookie);
      const cases: [string, Record<string, string>, number][] = [
        ['no CSRF token', { once: form.once, confirm: 'yes' }, 403],
        ['a wrong CSRF token', { ...form, csrf: `${form.csrf.slice(1)}x`, confirm: 'yes' }, 403],
        ['no confirmation', { ...form }, 400],
        ['an invented form token', { csrf: form.csrf, once: 'x'.repeat(43), confirm: 'yes' }, 409],
        ['no form token', { csrf: form.csrf, confirm: 'yes' }, 409],
      ];
      for (const [name, fields, status] of cases) {
        const answer = await client.postForm(ROTATE, fields, cookie);
        expect(answer.status, name).toBe(status);
        expect(answer.text, name).not.toContain('id="new-secret"');
      }
      // Refused before the token was looked at, the form still works; another session cannot use it.
      const other = await client.signIn(token());
      const stolen = await client.postForm(ROTATE, { csrf: other.csrf, once: form.once, confirm: 'yes' }, other.cookie);
      expect(stolen.status).toBe(409);
      expect(await rotations('demo-kitchen')).toBe(before);
      // A token issued for one page (two tabs) stays good while the other is spent.
      const second = await rotateForm(cookie);
      expect((await client.postForm(ROTATE, { ...second, confirm: 'yes' }, cookie)).status).toBe(200);
      expect(await rotations('demo-kitchen')).toBe(before + 1);
    },
  );

  it('refuses a form token issued for another slug, and spends it', async () => {
    const { cookie } = await client.signIn(ADMIN);
    const other = await rotateForm(cookie, 'other-kitchen');
    const answer = await client.postForm(ROTATE, { ...other, confirm: 'yes' }, cookie);
    expect(answer.status).toBe(409);
    const back = await client.postForm(
      '/console/providers/other-kitchen/rotate-webhook-secret',
      { ...other, confirm: 'yes' },
      cookie,
    );
    expect(back.status).toBe(409);
    expect(await rotations('other-kitchen')).toBe(0);
  });

  it('lets a provider session rotate its own secret through /providers/me, shown once, on a no-store page', async () => {
    const { cookie } = await client.signIn(providerToken);
    const before = await rotatedBy('demo-kitchen');
    const form = await rotateForm(cookie);
    expect(form.once).toMatch(/^[\w-]{43}$/);

    const answer = await client.postForm(ROTATE, { ...form, confirm: 'yes' }, cookie);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.getSetCookie()).toEqual([]);
    const secret = secretOf(answer);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    // The provider's own route and token rotated it (the operator's would be logged as 'admin').
    expect(await rotatedBy('demo-kitchen')).toEqual([...before, 'provider']);
    expect(await h.sendEvent('demo-kitchen', secret)).toBe(200);
    // The rotation changed the secret, not the token: the session lives on.
    expect((await client.get('/console/providers/demo-kitchen', cookie)).status).toBe(200);

    const again = await client.postForm(ROTATE, { ...form, confirm: 'yes' }, cookie);
    expect(again.status).toBe(409);
    expect(again.text).not.toContain(secret);
    expect((await client.get('/console/providers/demo-kitchen', cookie)).text).not.toContain(secret);
    expect(await rotatedBy('demo-kitchen')).toEqual([...before, 'provider']);
    for (const line of logLines) expect(line).not.toContain(secret);
  });

  it("refuses a provider session another provider's slug or form token, and rotates nothing", async () => {
    const demo = await client.signIn(providerToken);
    const other = await client.signIn(otherToken);
    const admin = await client.signIn(ADMIN);
    expect((await client.get('/console/providers/other-kitchen', demo.cookie)).status).toBe(404);
    const own = await rotateForm(demo.cookie);
    const othersForm = await rotateForm(other.cookie, 'other-kitchen');
    const operatorsForm = await rotateForm(admin.cookie, 'other-kitchen');
    const OTHER = '/console/providers/other-kitchen/rotate-webhook-secret';
    const before = await rotations('demo-kitchen');
    const cases: [string, string, string, number][] = [
      ['its own form token, posted to the other slug', OTHER, own.once, 404],
      ["the other provider's form token, posted to the other slug", OTHER, othersForm.once, 404],
      ["the other provider's form token, posted to its own slug", ROTATE, othersForm.once, 409],
      ["the operator's form token for the other slug, posted to its own slug", ROTATE, operatorsForm.once, 409],
      ["the operator's form token for the other slug, posted to the other slug", OTHER, operatorsForm.once, 404],
    ];
    for (const [name, path, once, status] of cases) {
      const answer = await client.postForm(path, { csrf: demo.csrf, once, confirm: 'yes' }, demo.cookie);
      expect(answer.status, name).toBe(status);
      expect(answer.text, name).not.toContain('id="new-secret"');
    }
    expect(await rotations('other-kitchen')).toBe(0);
    expect(await rotations('demo-kitchen')).toBe(before);
    // The other provider's secret is untouched: it still verifies, and not as a "previous" one.
    expect(await h.sendEvent('other-kitchen', otherSecret)).toBe(200);
    const events = await h.api('GET', '/api/v1/providers/other-kitchen/events');
    const newest = (events.json['data'] as Record<string, unknown>[]).at(-1) ?? {};
    expect(newest).toMatchObject({ verified: true });
    expect(newest['verifiedWith']).not.toBe('previous');
  });

  it('explains, with the API answer, that a slug serve was started with cannot be rotated, beside a disabled button', async () => {
    const { cookie, csrf } = await client.signIn(ADMIN);
    expect((await h.api('POST', `/api/v1/admin/providers/${CONFIGURED}/rotate-webhook-secret`)).status).toBe(404);
    const page = await client.get(`/console/providers/${CONFIGURED}`, cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<button type="button" disabled aria-describedby="rotate-unavailable">');
    expect(page.text).toContain('one of the providers serve was started with (its <code>providers</code> setting)');
    expect(page.text).toContain(
      `not registered: the API answered 404: no provider &#34;${CONFIGURED}&#34; is registered`,
    );
    expect(page.text).not.toContain('name="once"');
    // A post made anyway (no form token was issued) rotates nothing.
    const answer = await client.postForm(
      `/console/providers/${CONFIGURED}/rotate-webhook-secret`,
      { csrf, once: 'x'.repeat(43), confirm: 'yes' },
      cookie,
    );
    expect(answer.status).toBe(409);
    // An unknown slug is still not found: neither the registry nor the webhook receiver knows it.
    expect((await client.get('/console/providers/nobody-here', cookie)).status).toBe(404);
  });
});
