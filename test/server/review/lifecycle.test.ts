import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../../../src/server/core-routes/registry.js';
import {
  allowedTriggers,
  decide,
  illegalTransitionMessage,
  LIFECYCLE,
  REVIEW_STATES,
  TRIGGERS,
} from '../../../src/server/review/lifecycle.js';

/** The contract's moderation table (States and transitions › Moderation), row by row. */
const CONTRACT_TABLE: [from: string, trigger: string, to: string][] = [
  ['DRAFT', 'SUBMIT_REVIEW', 'PENDING_APPROVAL'],
  ['PENDING_APPROVAL', 'APPROVE', 'APPROVED'],
  ['APPROVED', 'ACTIVATE', 'ACTIVE'],
  ['PENDING_APPROVAL', 'REQUEST_CHANGES', 'CHANGES_REQUESTED'],
  ['CHANGES_REQUESTED', 'UPDATE_INTEGRATION', 'DRAFT'],
  ['PENDING_APPROVAL', 'REJECT', 'REJECTED'],
  ['ACTIVE', 'SUSPEND', 'SUSPENDED'],
  ['REJECTED', 'REOPEN', 'DRAFT'],
  ['SUSPENDED', 'REOPEN', 'DRAFT'],
];

describe('the moderation lifecycle table', () => {
  it.each(CONTRACT_TABLE)('%s --%s--> %s', (from, trigger, to) => {
    const decided = decide(from as never, trigger as never);
    expect(decided.ok && decided.row.to).toBe(to);
  });

  it('non-approval decisions need a reason; submit-review a passing current certification; reopen invalidates', () => {
    const guardOf = (t: string) => LIFECYCLE.find((r) => r.trigger === t)?.guard;
    expect(['REQUEST_CHANGES', 'REJECT', 'SUSPEND'].map(guardOf)).toEqual(Array(3).fill('reason-given'));
    expect(guardOf('SUBMIT_REVIEW')).toBe('passing-current-certification');
    expect([guardOf('APPROVE'), guardOf('ACTIVATE'), guardOf('REOPEN')]).toEqual([undefined, undefined, undefined]);
    expect(LIFECYCLE.find((r) => r.trigger === 'REOPEN')?.effects).toContain('invalidate-certifications');
    expect(LIFECYCLE.find((r) => r.trigger === 'SUBMIT_REVIEW')?.effects).toContain('clear-visible-reason');
  });

  it('REJECTED and SUSPENDED cannot reset themselves by changing their integration', () => {
    for (const state of ['REJECTED', 'SUSPENDED'] as const) {
      expect(decide(state, 'UPDATE_INTEGRATION').ok).toBe(false);
      expect(allowedTriggers(state)).toEqual(['REOPEN']);
    }
  });

  it('every other (state, trigger) pair is illegal, and the message names the state and the allowed triggers', () => {
    let illegal = 0;
    for (const state of REVIEW_STATES) {
      for (const trigger of TRIGGERS) {
        const inTable = LIFECYCLE.some((r) => r.trigger === trigger && r.from.includes(state));
        const decided = decide(state, trigger);
        expect(decided.ok, `${state} ${trigger}`).toBe(inTable);
        if (decided.ok) continue;
        illegal++;
        const message = illegalTransitionMessage('demo', trigger, state);
        expect(message).toContain(`its review status is ${state}`);
        for (const allowed of decided.allowed) expect(message).toContain(allowed);
      }
    }
    expect(illegal).toBeGreaterThan(30);
  });

  it('provider status is never CERTIFIED or REVIEW', () => {
    for (const row of LIFECYCLE) expect(['DRAFT', 'SANDBOX', 'ACTIVE', 'SUSPENDED', 'DISABLED']).toContain(row.status);
  });
});

describe('transitions of one provider', () => {
  let dataDir: string;
  let registry: ProviderRegistry;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'provcert-lifecycle-'));
    registry = await ProviderRegistry.open(dataDir);
    await registry.register(
      {
        name: 'Demo',
        slug: 'demo',
        type: 'DELIVERY',
        category: 'food_delivery',
        geography: ['DE'],
        baseUrl: 'http://127.0.0.1:9',
        authMethod: 'API_KEY',
        capabilities: ['METADATA'],
        credential: { env: 'X' },
      },
      new Date(),
      'admin',
    );
  });
  afterEach(async () => {
    await registry.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('of concurrent decisions exactly one wins; the others see the state it left', async () => {
    await registry.transition('demo', 'SUBMIT_REVIEW', { actor: 'admin', guard: async () => undefined }, new Date());
    const reason = { reasonCode: 'OTHER', reason: 'a reason long enough' };
    const triggers = ['APPROVE', 'REJECT', 'REQUEST_CHANGES', 'APPROVE', 'REJECT', 'REQUEST_CHANGES'] as const;
    const outcomes = await Promise.all(
      triggers.map((t) => registry.transition('demo', t, { actor: 'admin', ...reason }, new Date())),
    );
    expect(outcomes.filter((o) => o.kind === 'ok')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'illegal')).toHaveLength(5);
    expect(registry.operations.history('demo').map((e) => e.trigger)).toHaveLength(2);
  });

  it('a failed guard changes nothing and writes no history', async () => {
    const outcome = await registry.transition(
      'demo',
      'SUBMIT_REVIEW',
      { actor: 'admin', guard: async () => 'not certified' },
      new Date(),
    );
    expect(outcome).toEqual({ kind: 'guard-failed', current: 'DRAFT', message: 'not certified' });
    expect(registry.get('demo')?.reviewStatus).toBe('DRAFT');
    expect(registry.operations.history('demo')).toEqual([]);
  });

  it('the table guards hold even when a caller forgets them', async () => {
    const noCheck = await registry.transition('demo', 'SUBMIT_REVIEW', { actor: 'admin' }, new Date());
    expect(noCheck.kind).toBe('guard-failed');
    await registry.transition('demo', 'SUBMIT_REVIEW', { actor: 'admin', guard: async () => undefined }, new Date());
    for (const input of [{}, { reasonCode: 'X' }, { reasonCode: 'X', reason: 'too short' }]) {
      const outcome = await registry.transition('demo', 'REJECT', { actor: 'admin', ...input }, new Date());
      expect(outcome).toMatchObject({ kind: 'guard-failed', current: 'PENDING_APPROVAL' });
    }
    expect(registry.get('demo')?.reviewStatus).toBe('PENDING_APPROVAL');
  });
});
