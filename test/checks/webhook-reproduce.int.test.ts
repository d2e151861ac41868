import { describe, expect, it } from 'vitest';
import type { FaultName } from '../../src/reference-provider/index.js';
import { certify } from '../support/certify.js';

/** A webhook finding reproduces with the event, never a request that creates an order or reads an action (issue 34). */
describe('webhook findings reproduce with the event itself', () => {
  it.each<[string, FaultName, boolean]>([
    ['no event arrives', 'webhook-not-sent', false],
    ['no event arrives, under --strict', 'webhook-not-sent', true],
    // Events arrive, and are wrong: the finding is about what was sent, so is its reproduce line.
    ['events signed with another secret', 'webhook-wrong-secret', false],
    ['an event whose status is not the action’s, under --strict', 'webhook-status-mismatch', true],
  ])('%s: a send-event line, no POST /actions or GET /actions/…', async (_name, fault, strict) => {
    const { report } = await certify({ faults: [fault], strict, webhookTimeoutMs: 2000 });
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
