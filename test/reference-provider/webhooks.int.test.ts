import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withProvider } from './fixture.js';
import { at, createAction, hmac, startReceiver, str, WEBHOOK_SECRET } from './helpers.js';

let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe('status webhooks', () => {
  it('sends a signed action.status_updated event for a created and a cancelled action, in order', async () => {
    await withProvider({ webhookUrl: receiver.url }, async ({ provider, call }) => {
      const { action } = await createAction(call);
      const id = str(action.json, 'id');
      await call('POST', `/actions/${id}/cancel`, { body: { reason: 'customer changed their mind' } });
      await provider.webhooksSettled();

      const mine = receiver.events.filter((e) => e.raw.includes(id));
      expect(mine).toHaveLength(2);
      for (const event of mine) {
        expect(event.path).toBe('/api/v1/webhooks/demo-kitchen');
        expect(event.headers['content-type']).toBe('application/json');
        expect(event.headers['x-service-signature']).toBe(hmac(WEBHOOK_SECRET, event.raw));
      }
      const [created, cancelled] = mine.map((e) => JSON.parse(e.raw) as unknown);
      expect(created).toEqual({
        eventId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        eventType: 'action.status_updated',
        providerSlug: 'demo-kitchen',
        timestamp: expect.any(String),
        actionId: id,
        newStatus: 'AWAITING_PAYMENT',
      });
      expect(cancelled).toMatchObject({
        actionId: id,
        newStatus: 'CANCELLED',
        reasonCode: 'CUSTOMER_CANCELLED',
        reason: expect.any(String),
      });
      expect(str(cancelled, 'reason').length).toBeGreaterThanOrEqual(12);
      expect(at(created, 'eventId')).not.toBe(at(cancelled, 'eventId'));
      const status = (await call('GET', `/actions/${id}`)).json;
      expect(at(status, 'status')).toBe(at(cancelled, 'newStatus'));
      expect(provider.webhookDeliveries.map((d) => d.outcome)).toEqual(['sent', 'sent']);
    });
  });

  it('without a webhook URL, events are skipped; setWebhookUrl applies to later events', async () => {
    const lines: string[] = [];
    await withProvider({ log: (line) => lines.push(line) }, async ({ provider, call }) => {
      await createAction(call);
      await provider.webhooksSettled();
      expect(provider.webhookDeliveries.map((d) => d.outcome)).toEqual(['skipped']);
      expect(lines.join('\n')).toMatch(/skipped: no webhook URL/);

      provider.setWebhookUrl(receiver.url);
      const { action } = await createAction(call);
      await provider.webhooksSettled();
      expect(receiver.events.some((e) => e.raw.includes(str(action.json, 'id')))).toBe(true);
      expect(lines.join('\n')).not.toContain(WEBHOOK_SECRET);
    });
  });

  it('a receiver that is down does not break the provider', async () => {
    // A port that was free a moment ago: connections are refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    await withProvider(
      { webhookUrl: `http://127.0.0.1:${port}/api/v1/webhooks/demo-kitchen` },
      async ({ provider, call }) => {
        const { action } = await createAction(call);
        expect(action.status).toBe(200);
        await provider.webhooksSettled();
        expect(provider.webhookDeliveries.map((d) => d.outcome)).toEqual(['failed']);
        expect((await call('GET', '/health')).status).toBe(200);
      },
    );
  });
});
