import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passingReport } from '../report/sample-reports.js';
import { type FormClient, formClient } from './form-client.js';
import { ADMIN, type Harness, startHarness } from './harness.js';

// Approve, Activate and Reopen change a provider at once (issue 34): the console sends them only with their
// confirmation box ticked. The browser test shows the page asks for it; this one posts the forms as a client
// without the page's `required` would (a script-less browser, a crafted post), and reads the outcome from the API.

let h: Harness;
let client: FormClient;
let session: { cookie: string; csrf: string };
const SLUG = 'confirm-http-kitchen';
const REASON = { reasonCode: 'CHECK_FAILED', reason: 'Webhooks stopped arriving for two days.' };

/** The review status as the core's API answers it (an admin view wraps the provider). */
async function reviewStatus(): Promise<unknown> {
  const { json } = await h.api('GET', `/api/v1/admin/providers/${SLUG}`);
  const provider = json['provider'] as Record<string, unknown> | undefined;
  return (provider ?? json)['reviewStatus'];
}

/** Posts one move of the provider page's decision panel; answers the flash the page then shows. */
async function post(action: 'decide' | 'reopen', fields: Record<string, string>): Promise<string> {
  const answer = await client.postForm(
    `/console/providers/${SLUG}/${action}`,
    { csrf: session.csrf, ...fields },
    session.cookie,
  );
  expect(answer.status).toBe(303);
  const page = await client.get(answer.headers.get('location') ?? '', session.cookie);
  return /<p class="flash[^"]*"[^>]*>([^<]*)</.exec(page.text)?.[1] ?? '';
}

beforeAll(async () => {
  h = await startHarness(passingReport);
  await h.register({ slug: SLUG, name: 'Confirm Http Kitchen' });
  expect((await h.api('POST', `/api/v1/providers/${SLUG}/certify`)).status).toBe(200);
  expect((await h.api('POST', `/api/v1/providers/${SLUG}/submit-review`)).status).toBe(200);
  client = formClient(h.url);
  session = await client.signIn(ADMIN);
});
afterAll(async () => {
  await h?.close();
});

describe('a confirmed move posted without its box ticked changes nothing', () => {
  it.each<[string, 'decide' | 'reopen', string, string, () => Promise<void>]>([
    ['APPROVE', 'decide', 'PENDING_APPROVAL', 'APPROVED', async () => undefined],
    ['ACTIVATE', 'decide', 'APPROVED', 'ACTIVE', async () => undefined],
    [
      'REOPEN',
      'reopen',
      'SUSPENDED',
      'DRAFT',
      async () => {
        const suspended = await h.api('POST', `/api/v1/admin/providers/${SLUG}/review`, {
          decision: 'SUSPEND',
          ...REASON,
        });
        expect(suspended.status).toBe(200);
      },
    ],
  ])('%s: refused unticked or ticked for another move, sent when ticked', async (move, action, from, to, arrange) => {
    await arrange();
    await expect(reviewStatus()).resolves.toBe(from);
    const refusal = `${move} was not sent: tick its confirmation box first`;
    await expect(post(action, { decision: move })).resolves.toContain(refusal);
    await expect(
      post(action, { decision: move, confirm: move === 'APPROVE' ? 'ACTIVATE' : 'APPROVE' }),
    ).resolves.toContain(refusal);
    await expect(reviewStatus()).resolves.toBe(from);
    await expect(post(action, { decision: move, confirm: move })).resolves.toContain(`review status is now ${to}`);
    await expect(reviewStatus()).resolves.toBe(to);
  });
});
