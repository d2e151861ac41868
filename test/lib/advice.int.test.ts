import { afterAll, beforeAll } from 'vitest';
import { certify } from '../../src/lib/certify.js';
import type { RunningProvider } from '../../src/reference-provider/index.js';
import { TEST_CREDENTIAL, TEST_WEBHOOK_SECRET } from '../support/certify.js';
import { describe, expect, test as it, type ReferenceForRun } from '../support/fixtures.js';
import { startReferenceForRun } from '../support/reference-run.js';

/**
 * Advice in a library run's findings names certify()'s options as the config file names them (one name per setting,
 * spec/config.schema.json), never a CLI flag (the cli's spelling: flag-text).
 */

/** Declares only the read-only capabilities: a portal that also declares QUOTE differs from it. */
let readOnly: RunningProvider;

// The full provider is the integration tier's (test/support/fixtures.ts); this one declares less.
beforeAll(async () => {
  ({ provider: readOnly } = await startReferenceForRun({
    credential: TEST_CREDENTIAL,
    webhookSecret: TEST_WEBHOOK_SECRET,
    capabilities: ['METADATA', 'HEALTH', 'CATALOG'],
  }));
});

afterAll(async () => {
  await readOnly.close();
});

/** certify() against the shared reference provider (its credential and secret are the read-only one's too). */
const run = (reference: ReferenceForRun, options: Partial<Parameters<typeof certify>[0]>) =>
  certify({
    baseUrl: reference.provider.url,
    auth: 'API_KEY',
    credential: reference.credential,
    webhookSecret: reference.webhookSecret,
    local: true,
    webhookPort: reference.webhookPort,
    ...options,
  });

describe("certify()'s findings name its own options", () => {
  it.for<[string, 'full' | 'readOnly', Partial<Parameters<typeof certify>[0]>, string, RegExp]>([
    [
      'a quote valid longer than the wait allowed',
      'full',
      { only: ['quote-expiry'], maxExpiryWait: 1 },
      'quote-expiry',
      /\(maxExpiryWait: 1\); to test it: rerun with maxExpiryWait: 15, or give quotes a shorter validity/,
    ],
    [
      'portal capabilities that differ from the manifest',
      'readOnly',
      { only: ['capabilities'], capabilities: ['METADATA', 'HEALTH', 'CATALOG', 'QUOTE'] },
      'capabilities',
      /declared in the portal \(the capabilities setting\) but not by GET \/provider-info: QUOTE/,
    ],
    [
      'a plain http address on loopback',
      'full',
      { only: ['base-url'] },
      'base-url',
      /allowed by the local setting, but hosted certification needs a public HTTPS address/,
    ],
  ])('%s', async ([, target, options, id, advice], { reference }) => {
    const report = await run(reference, {
      ...options,
      ...(target === 'readOnly' ? { baseUrl: readOnly.url } : {}),
    });
    const check = report.checks.find((c) => c.id === id);
    const text = [check?.message, ...(check?.findings ?? []).map((f) => f.message)].join('\n');
    expect(text).toMatch(advice);
    expect(text).not.toMatch(/--[a-z]/);
  });
});

describe("certify()'s old unit-suffixed option names, deprecated for one release", () => {
  it('are read as the setting they name, with one DeprecationWarning per name however often they are used', async ({
    reference,
  }) => {
    const warnings: Error[] = [];
    const listen = (warning: Error): void => {
      if (warning.name === 'DeprecationWarning') warnings.push(warning);
    };
    process.on('warning', listen);
    try {
      for (let i = 0; i < 2; i++) {
        const report = await run(reference, { only: ['quote-expiry'], maxExpiryWaitS: 1 });
        const check = report.checks.find((c) => c.id === 'quote-expiry');
        expect(check?.message).toMatch(/\(maxExpiryWait: 1\); to test it: rerun with maxExpiryWait: /);
        expect(report.inputs).toMatchObject({ maxExpiryWait: 1 });
      }
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listen);
    }
    expect(warnings.map((w) => w.message)).toEqual([
      'certify(): the option maxExpiryWaitS is deprecated; use maxExpiryWait',
    ]);
  });
});
