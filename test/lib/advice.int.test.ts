import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certify } from '../../src/lib/certify.js';
import type { RunningProvider } from '../../src/reference-provider/index.js';
import { startReferenceForRun } from '../support/reference-run.js';

/**
 * Advice in a library run's findings names certify()'s options as the config file names them (one name per setting,
 * spec/config.schema.json), never a CLI flag (the cli's spelling: flag-text).
 */

const CREDENTIAL = 'lib-advice-credential-31q';
const WEBHOOK_SECRET = 'lib-advice-secret-48r';

let provider: RunningProvider;
/** Declares only the read-only capabilities: a portal that also declares QUOTE differs from it. */
let readOnly: RunningProvider;
let port: number;

beforeAll(async () => {
  ({ provider, webhookPort: port } = await startReferenceForRun({
    credential: CREDENTIAL,
    webhookSecret: WEBHOOK_SECRET,
  }));
  ({ provider: readOnly } = await startReferenceForRun({
    credential: CREDENTIAL,
    webhookSecret: WEBHOOK_SECRET,
    capabilities: ['METADATA', 'HEALTH', 'CATALOG'],
  }));
});

afterAll(async () => {
  await Promise.all([provider.close(), readOnly.close()]);
});

const run = (options: Partial<Parameters<typeof certify>[0]>) =>
  certify({
    baseUrl: provider.url,
    auth: 'API_KEY',
    credential: CREDENTIAL,
    webhookSecret: WEBHOOK_SECRET,
    local: true,
    webhookPort: port,
    ...options,
  });

describe("certify()'s findings name its own options", () => {
  it.each<[string, 'full' | 'readOnly', Partial<Parameters<typeof certify>[0]>, string, RegExp]>([
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
  ])('%s', async (_name, target, options, id, advice) => {
    const report = await run({ ...options, baseUrl: target === 'readOnly' ? readOnly.url : provider.url });
    const check = report.checks.find((c) => c.id === id);
    const text = [check?.message, ...(check?.findings ?? []).map((f) => f.message)].join('\n');
    expect(text).toMatch(advice);
    expect(text).not.toMatch(/--[a-z]/);
  });
});

describe("certify()'s old unit-suffixed option names, deprecated for one release", () => {
  it('are read as the setting they name, with one DeprecationWarning per name however often they are used', async () => {
    const warnings: Error[] = [];
    const listen = (warning: Error): void => {
      if (warning.name === 'DeprecationWarning') warnings.push(warning);
    };
    process.on('warning', listen);
    try {
      for (let i = 0; i < 2; i++) {
        const report = await run({ only: ['quote-expiry'], maxExpiryWaitS: 1 });
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
