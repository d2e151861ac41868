import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/model/report.js';
import { fanOutRunEvents, type RunEvents } from '../../src/model/run-events.js';
import { belongsTo, type ReceivedWebhook } from '../../src/model/webhooks.js';

describe('fanOutRunEvents: the one multiplexer of the run-event contract', () => {
  it('calls every listener of an event in order, and has only the events some listener has', () => {
    const heard: string[] = [];
    const consoleLike: RunEvents = {
      onCheckStart: (id) => heard.push(`console start ${id}`),
      onCheckEnd: (r) => heard.push(`console end ${r.id}`),
    };
    const stream: RunEvents = { onCheckEnd: (r) => heard.push(`stream end ${r.id}`) };
    const all = fanOutRunEvents(consoleLike, undefined, stream);
    expect(Object.keys(all).sort()).toEqual(['onCheckEnd', 'onCheckStart']);
    all.onCheckStart?.('health', 'Health');
    all.onCheckEnd?.({ id: 'health' } as CheckResult);
    expect(heard).toEqual(['console start health', 'console end health', 'stream end health']);
    // Nobody listens to webhooks: the run must not subscribe to the receiver.
    expect(all.onWebhook).toBeUndefined();
  });
});

describe('belongsTo: the one slug filter of a run’s webhooks', () => {
  const hook = (slug: string | null, providerSlug?: string): ReceivedWebhook =>
    ({ slug, event: providerSlug === undefined ? undefined : { providerSlug } }) as unknown as ReceivedWebhook;
  it.each([
    ['its own route', hook('north'), true],
    ['another provider’s route', hook('south'), false],
    ['another route naming it in the body', hook('south', 'north'), false],
    ['the legacy route naming it', hook(null, 'north'), true],
    ['the legacy route naming another', hook(null, 'south'), false],
    ['the legacy route with no event', hook(null), false],
  ])('%s', (_name, webhook, mine) => {
    expect(belongsTo(webhook, 'north')).toBe(mine);
  });
});
