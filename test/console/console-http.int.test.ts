import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP } from '../../src/console/respond.js';
import { passingReport } from '../report/sample-reports.js';
import { type FormClient, formClient } from './form-client.js';
import { ADMIN, type Harness, startHarness } from './harness.js';

let h: Harness;
let client: FormClient;
let providerToken = '';

/** No inline script, no inline style, no event handler attribute: the CSP would block them anyway. */
function expectNoInlineCode(page: string): void {
  expect(page).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  expect(page).not.toMatch(/\sstyle=/);
  expect(page).not.toMatch(/\son[a-z]+=/);
}

beforeAll(async () => {
  h = await startHarness(passingReport);
  client = formClient(h.url);
  providerToken = (await h.register({})).token;
  await h.register({ slug: 'other-kitchen', name: 'Other Kitchen' });
  expect((await h.api('POST', '/api/v1/providers/demo-kitchen/certify')).status).toBe(200);
});

afterAll(async () => {
  await h?.close();
});

describe('the console over HTTP', () => {
  it('sends a visitor without a session to sign-in, for pages, streams and forms alike', async () => {
    for (const path of [
      '/console',
      '/console/providers',
      '/console/providers/demo-kitchen',
      '/console/providers/demo-kitchen/stream',
    ]) {
      const answer = await client.get(path);
      expect(answer.status, path).toBe(303);
      expect(answer.headers.get('location')).toBe('/console/sign-in');
    }
    const decide = await client.postForm('/console/providers/demo-kitchen/decide', { decision: 'APPROVE', csrf: 'x' });
    expect(decide.status).toBe(303);
    expect(decide.headers.get('location')).toBe('/console/sign-in');
  });

  it('answers every page with the strict CSP and its companions, and no inline code', async () => {
    const page = await client.get('/console/sign-in');
    expect(page.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).not.toContain('unsafe');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expectNoInlineCode(page.text);
    const { cookie } = await client.signIn(ADMIN);
    for (const path of ['/console/providers', '/console/providers/demo-kitchen']) {
      const answer = await client.get(path, cookie);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
      expectNoInlineCode(answer.text);
      expect(answer.text).not.toContain(ADMIN);
    }
    const script = await client.get('/console/static/console.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.text).not.toMatch(/innerHTML|insertAdjacentHTML|document\.write|eval\(/);
  });

  it('allows the report page exactly its own inline style and script, by hash', async () => {
    const { cookie } = await client.signIn(ADMIN);
    const list = await h.api('GET', '/api/v1/providers/demo-kitchen/certifications');
    const id = (list.json['data'] as { id: string }[])[0]?.id ?? '';
    const report = await client.get(`/console/providers/demo-kitchen/certifications/${id}/report`, cookie);
    expect(report.status).toBe(200);
    const csp = report.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+';/);
    expect(csp).not.toContain('unsafe');
  });

  it('sets the session cookie HttpOnly, SameSite=Strict, scoped to /console, and never holds the token', async () => {
    const { form, answer } = await client.submitSignIn(ADMIN);
    const formCookie = form.headers.getSetCookie()[0] ?? '';
    expect(formCookie).toMatch(
      /^provcert_console_signin=[\w-]+; Path=\/console; HttpOnly; SameSite=Strict; Max-Age=600$/,
    );
    const session = answer.headers.getSetCookie().find((c) => c.startsWith('provcert_console=')) ?? '';
    expect(session).toMatch(/^provcert_console=[\w-]{43}; Path=\/console; HttpOnly; SameSite=Strict$/);
    expect(answer.headers.getSetCookie().join('\n')).not.toContain(ADMIN);
  });

  it('refuses a sign-in without its form token, and a form post without the session CSRF token', async () => {
    const noFormToken = await client.postForm('/console/sign-in', { csrf: 'guess', token: ADMIN });
    expect(noFormToken.status).toBe(401);
    expect(noFormToken.text).toContain('expired or was not sent from this console');
    expect(noFormToken.headers.getSetCookie().some((c) => c.startsWith('provcert_console='))).toBe(false);

    const { cookie } = await client.signIn(ADMIN);
    for (const csrf of ['', 'wrong-token']) {
      const refused = await client.postForm(
        '/console/providers/demo-kitchen/decide',
        { decision: 'APPROVE', csrf },
        cookie,
      );
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('CSRF');
    }
    const certifications = await h.api('GET', '/api/v1/providers/demo-kitchen/certifications');
    expect(certifications.json['total']).toBe(1);
  });

  it('bounds what an unauthenticated sign-in may send', async () => {
    const { answer: huge } = await client.submitSignIn('x'.repeat(100_000));
    expect(huge.status).toBe(401);
    expect(huge.headers.getSetCookie().some((c) => c.startsWith('provcert_console='))).toBe(false);
  });

  it("confines a provider session to its own provider: pages, reports, streams and the operator's forms", async () => {
    const { cookie, csrf, location } = await client.signIn(providerToken);
    expect(location).toBe('/console/providers/demo-kitchen');
    for (const path of [
      '/console/providers/other-kitchen',
      '/console/providers/other-kitchen/stream',
      '/console/providers/other-kitchen/certifications/any/report',
    ]) {
      const answer = await client.get(path, cookie);
      expect(answer.status, path).toBe(404);
      expect(answer.text).not.toContain('Other Kitchen');
    }
    expect((await client.get('/console/providers', cookie)).headers.get('location')).toBe(
      '/console/providers/demo-kitchen',
    );
    const decide = await client.postForm(
      '/console/providers/demo-kitchen/decide',
      { decision: 'APPROVE', csrf },
      cookie,
    );
    expect(decide.status).toBe(404);
    const reopen = await client.postForm('/console/providers/demo-kitchen/reopen', { csrf }, cookie);
    expect(reopen.status).toBe(404);
    const own = await client.get('/console/providers/demo-kitchen', cookie);
    expect(own.status).toBe(200);
    expect(own.text).not.toContain(providerToken);
  });

  it('streams webhook events with their seq as the event id, resumes after Last-Event-ID, and ends at sign-out', async () => {
    const { cookie, csrf } = await client.signIn(ADMIN);
    const secret = (await h.register({ slug: 'stream-kitchen', name: 'Stream Kitchen' })).secret;
    expect(await h.sendEvent('stream-kitchen', secret, { eventId: 'evt-first' })).toBe(200);
    const open = async (lastEventId?: string) => {
      const res = await fetch(`${h.url}/console/providers/stream-kitchen/stream?after=0`, {
        headers: { cookie, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      });
      expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      let text = '';
      const until = async (pattern: RegExp): Promise<string> => {
        while (!pattern.test(text)) {
          const { value, done } = await reader.read();
          if (done) return text;
          text += new TextDecoder().decode(value);
        }
        return text;
      };
      return { until, reader };
    };
    const first = await open();
    expect(await first.until(/evt-first|"seq":1/)).toMatch(/id: 1\nevent: webhook\ndata: \{"seq":1,/);
    await first.reader.cancel();

    // A reconnect after seq 1 gets only what came later.
    const again = await open('1');
    expect(await h.sendEvent('stream-kitchen', secret, { eventId: 'evt-second' })).toBe(200);
    const seen = await again.until(/"seq":2/);
    expect(seen).not.toContain('"seq":1,');
    expect(seen).toContain('id: 2\n');

    // Signing out ends the session's streams.
    await client.postForm('/console/sign-out', { csrf }, cookie);
    const { done } = await again.reader.read();
    expect(done).toBe(true);
  });

  it('tells a page that showed a certification running that it has ended, when it ended before the stream connected', async () => {
    const { cookie } = await client.signIn(ADMIN);
    const res = await fetch(`${h.url}/console/providers/demo-kitchen/stream?after=0&certifying=1`, {
      headers: { cookie },
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('event: certification')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).toContain('event: certification\ndata: {"state":"finished"');
    await reader.cancel();
  });

  // Last: it throttles every sign-in for a second.
  it('throttles failed sign-ins: a guesser gets five a second', async () => {
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { answer } = await client.submitSignIn(`guess-${i}`);
      answers.push(answer.text);
    }
    expect(answers.slice(0, 5).every((t) => t.includes('does not accept this token'))).toBe(true);
    // Said to an operator and a provider alike: both kinds of token, not the provider route's own 401 alone.
    expect(answers[0]).toContain('it is not the operator token');
    expect(answers[0]).not.toContain('&lt;provider token&gt;');
    expect(answers[5]).toContain('too many failed sign-ins');
  });
});
