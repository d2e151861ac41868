import { describe, expect, it } from 'vitest';
import { certify } from '../support/certify.js';

/** A webhook finding reproduces with the event, never a request that creates an order or reads an action (issue 34). */
describe('webhook findings reproduce with the event itself', () => {
  it.each([
    ['no event arrives', false],
    ['no event arrives, under --strict', true],
  ])('%s: a send-event line, no POST /actions or GET /actions/…', async (_name, strict) => {
    const { report } = await certify({ faults: ['webhook-not-sent'], strict, webhookTimeoutMs: 2000 });
    const webhook = report.checks.find((c) => c.id === 'webhook');
    expect(webhook?.status).toBe('fail');
    const reproduce = webhook?.reproduce ?? '';
    expect(reproduce).toMatch(/^# the provider sends this event/);
    expect(reproduce).toMatch(
      /\nprovcert send-event --to http:\/\/127\.0\.0\.1:\d+\/api\/v1\/webhooks\/demo-kitchen --slug demo-kitchen --status AWAITING_PAYMENT --action-id \S+ --secret-env SERVICE_WEBHOOK_SECRET$/,
    );
    expect(reproduce).not.toMatch(/curl|POST|GET/);
  });
});
