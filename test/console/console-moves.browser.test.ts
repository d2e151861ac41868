import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failingReport, passingReport } from '../report/sample-reports.js';
import { expectAccessible, openBrowser, signInWith } from './browser.js';
import { ADMIN, type Harness, startHarness } from './harness.js';

// The decision panel offers only the moves the lifecycle allows from the provider's review status. The
// expected sets below are the contract's moderation table written out by hand (an oracle independent of
// src/server/review/lifecycle.ts, which the page reads through the API's allowedTransitions).

let h: Harness;
let context: BrowserContext;
let page: Page;
let problems: string[] = [];
const SLUG = 'moves-kitchen';
const REASON = { reasonCode: 'CHECK_FAILED', reason: 'The webhook signature check failed twice.' };

interface Offered {
  submit: 'enabled' | 'disabled' | 'absent';
  buttons: string[];
  reasoned: string[];
}

/** What the decision panel of the provider page offers now. */
async function offered(): Promise<Offered> {
  await page.goto(`${h.url}/console/providers/${SLUG}`);
  const submit = page.getByRole('button', { name: 'Submit for review' });
  const submitState = (await submit.count()) === 0 ? 'absent' : (await submit.isDisabled()) ? 'disabled' : 'enabled';
  const buttons = await page
    .locator('#decision form[data-move]:not([data-move="SUBMIT_REVIEW"])')
    .evaluateAll((forms) => forms.map((f) => f.getAttribute('data-move') ?? ''));
  const reasoned = await page
    .locator('#decision form[data-reason-check] select[name=decision] option')
    .evaluateAll((options) => options.map((o) => o.getAttribute('value') ?? ''));
  return { submit: submitState, buttons, reasoned };
}

const reviewStatus = (): Promise<string | null> => page.locator('#review-status').textContent();
const api = async (path: string, body?: unknown): Promise<void> => {
  const answer = await h.api('POST', path, body);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
};

beforeAll(async () => {
  h = await startHarness(passingReport);
  await h.register({ slug: SLUG, name: 'Moves Kitchen' });
  ({ context, page, problems } = await openBrowser(h, []));
  await signInWith(page, h, ADMIN);
});
afterAll(async () => {
  await context?.close();
  await h?.close();
});

describe('the decision panel offers only legal moves', () => {
  it('walks the lifecycle: in each review status, exactly the moves the contract allows', async () => {
    // DRAFT, never certified: submitting is a move of DRAFT, but its condition is unmet.
    h.reports.set(SLUG, failingReport);
    await expect(offered()).resolves.toEqual({ submit: 'disabled', buttons: [], reasoned: [] });
    await expect(page.locator('#submit-blocked').textContent()).resolves.toContain('passing certification');
    await api(`/api/v1/providers/${SLUG}/certify`);
    await expect(offered()).resolves.toEqual({ submit: 'disabled', buttons: [], reasoned: [] });
    h.reports.set(SLUG, passingReport);
    await api(`/api/v1/providers/${SLUG}/certify`);
    await expect(offered()).resolves.toEqual({ submit: 'enabled', buttons: [], reasoned: [] });
    await expectAccessible(page, 'draft decision panel');

    await page.getByRole('button', { name: 'Submit for review' }).click();
    await expect(reviewStatus()).resolves.toBe('PENDING_APPROVAL');
    await expect(offered()).resolves.toEqual({
      submit: 'absent',
      buttons: ['APPROVE'],
      reasoned: ['REQUEST_CHANGES', 'REJECT'],
    });

    await api(`/api/v1/admin/providers/${SLUG}/review`, { decision: 'APPROVE' });
    await expect(offered()).resolves.toEqual({ submit: 'absent', buttons: ['ACTIVATE'], reasoned: [] });
    await api(`/api/v1/admin/providers/${SLUG}/review`, { decision: 'ACTIVATE' });
    await expect(offered()).resolves.toEqual({ submit: 'absent', buttons: [], reasoned: ['SUSPEND'] });
    await api(`/api/v1/admin/providers/${SLUG}/review`, { decision: 'SUSPEND', ...REASON });
    await expect(offered()).resolves.toEqual({ submit: 'absent', buttons: ['REOPEN'], reasoned: [] });
    await api(`/api/v1/admin/providers/${SLUG}/reopen`);
    // Reopen invalidated the certifications: a draft again, its submit waits for a new pass.
    await expect(offered()).resolves.toEqual({ submit: 'disabled', buttons: [], reasoned: [] });
    await api(`/api/v1/providers/${SLUG}/certify`);
    await api(`/api/v1/providers/${SLUG}/submit-review`);
    await api(`/api/v1/admin/providers/${SLUG}/review`, { decision: 'REJECT', ...REASON });
    await expect(offered()).resolves.toEqual({ submit: 'absent', buttons: ['REOPEN'], reasoned: [] });
    await api(`/api/v1/admin/providers/${SLUG}/reopen`);
    await api(`/api/v1/providers/${SLUG}/certify`);
    await api(`/api/v1/providers/${SLUG}/submit-review`);
    await api(`/api/v1/admin/providers/${SLUG}/review`, { decision: 'REQUEST_CHANGES', ...REASON });
    // CHANGES_REQUESTED: only a new registration moves it; no button.
    await expect(offered()).resolves.toEqual({ submit: 'absent', buttons: [], reasoned: [] });
    await expect(page.locator('#no-moves').textContent()).resolves.toContain('CHANGES_REQUESTED');
    expect(problems).toEqual([]);
  });

  it('sends Approve only after its confirmation is ticked', async () => {
    await h.register({ slug: 'confirm-kitchen', name: 'Confirm Kitchen' });
    await api('/api/v1/providers/confirm-kitchen/certify');
    await api('/api/v1/providers/confirm-kitchen/submit-review');
    await page.goto(`${h.url}/console/providers/confirm-kitchen`);
    const form = page.locator('form[data-move="APPROVE"]');
    await expect(form.textContent()).resolves.toContain('PENDING_APPROVAL → APPROVED');
    // Not ticked: the browser does not send the form.
    await form.getByRole('button', { name: 'Approve' }).click();
    await expect(reviewStatus()).resolves.toBe('PENDING_APPROVAL');
    await expect(
      form.getByRole('checkbox').evaluate((c) => (c as unknown as { validity: { valid: boolean } }).validity.valid),
    ).resolves.toBe(false);
    await form.getByRole('checkbox').check();
    await form.getByRole('button', { name: 'Approve' }).click();
    await page.waitForLoadState('load');
    await expect(reviewStatus()).resolves.toBe('APPROVED');
  });
});
