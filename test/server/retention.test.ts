import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewWebhook } from '../../src/server/webhook-store.js';
import { WebhookStore } from '../../src/server/webhook-store.js';

let dir: string;
let store: WebhookStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provcert-retention-'));
  store = await WebhookStore.open(dir, { keptAccepted: 20, keptUnlogged: 10 });
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

let n = 0;
type Kind = 'accepted' | 'own-rejected' | 'noise';
/**
 * An accepted event of `slug`; one of its own that was rejected (signed with its secret, schema-invalid); or an
 * unverifiable request on its route, which is nobody's (noise).
 */
function entry(slug: string, kind: Kind): NewWebhook {
  n++;
  return {
    receivedAt: new Date().toISOString(),
    slug,
    headers: {},
    rawBody: '',
    event: { eventId: `e${n}`, providerSlug: slug },
    verified: kind !== 'noise',
    ...(kind === 'noise' ? {} : { attributedTo: slug, schemaValid: kind === 'accepted' }),
    answeredStatus: kind === 'accepted' ? 200 : kind === 'noise' ? 401 : 400,
    duplicate: false,
  };
}

const ids = (slug: string, kind: Kind): string[] =>
  store
    .all()
    .filter(
      (w) =>
        w.slug === slug && (w.answeredStatus === 200 ? 'accepted' : w.verified ? 'own-rejected' : 'noise') === kind,
    )
    .map((w) => String(w.event?.['eventId']));

describe('receiver retention is per provider', () => {
  it.each([
    ["another provider's accepted events", 'accepted'],
    ["another provider's own rejected events", 'own-rejected'],
    ['unverifiable requests (noise)', 'noise'],
  ] as const)('a flood of %s evicts none of a neighbour’s own events', (_name, kind) => {
    for (let i = 0; i < 4; i++) store.record(entry('quiet', 'accepted'));
    for (let i = 0; i < 3; i++) store.record(entry('quiet', 'own-rejected'));
    const before = [...ids('quiet', 'accepted'), ...ids('quiet', 'own-rejected')];
    expect(before).toHaveLength(7);
    for (let i = 0; i < 1_000; i++) store.record(entry('flooder', kind));
    expect([...ids('quiet', 'accepted'), ...ids('quiet', 'own-rejected')]).toEqual(before);
    expect(store.all().length).toBeLessThan(60);
  });

  it("keeps each provider's newest accepted events, and the newest noise, within their quotas", () => {
    for (let i = 0; i < 100; i++) store.record(entry('flooder', 'accepted'));
    for (let i = 0; i < 100; i++) store.record(entry('stranger-route', 'noise'));
    const kept = ids('flooder', 'accepted');
    // Trimmed in chunks: at most 110 % of the quota, never fewer than the quota, always the newest.
    expect(kept.length).toBeGreaterThanOrEqual(20);
    expect(kept.length).toBeLessThanOrEqual(22);
    expect(kept.at(-1)).toBe(`e${String(n - 100)}`);
    const noise = ids('stranger-route', 'noise');
    expect(noise.length).toBeGreaterThanOrEqual(10);
    expect(noise.length).toBeLessThanOrEqual(11);
    expect(noise.at(-1)).toBe(`e${n}`);
  });
});
