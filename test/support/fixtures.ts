import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base } from 'vitest';
import type { RunningProvider } from '../../src/reference-provider/index.js';
import { TEST_CREDENTIAL, TEST_WEBHOOK_SECRET } from './certify.js';
import { startReferenceForRun } from './reference-run.js';

/**
 * Shared fixtures of the integration tier (vitest `test.extend`): instead of each test starting its own servers,
 * a test names what it needs. `reference` is one reference provider per worker (API_KEY, TEST_CREDENTIAL and
 * TEST_WEBHOOK_SECRET, events to `webhookPort` for the run's own receiver), reset before each test that uses it.
 */
export interface ReferenceForRun {
  provider: RunningProvider;
  /** Where the provider sends its events: the port a run's own receiver listens on (`webhookPort`). */
  webhookPort: number;
  credential: string;
  webhookSecret: string;
}

export const test = base
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads which fixtures a fixture needs from this pattern.
  .extend('referenceWorker', { scope: 'worker' }, async ({}, { onCleanup }): Promise<ReferenceForRun> => {
    // Its data folder outlives each file's scratch cleanup (the provider outlives the file): removed after it closes.
    const dir = await mkdtemp(join(tmpdir(), 'provcert-reference-worker-'));
    const { provider, webhookPort } = await startReferenceForRun({
      credential: TEST_CREDENTIAL,
      webhookSecret: TEST_WEBHOOK_SECRET,
      dataFile: join(dir, 'data.json'),
    });
    onCleanup(async () => {
      await provider.close();
      await rm(dir, { recursive: true, force: true });
    });
    return { provider, webhookPort, credential: TEST_CREDENTIAL, webhookSecret: TEST_WEBHOOK_SECRET };
  })
  .extend('reference', async ({ referenceWorker }): Promise<ReferenceForRun> => {
    await referenceWorker.provider.reset();
    return referenceWorker;
  });

export { describe, expect } from 'vitest';
