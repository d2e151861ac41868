import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveServeSettings } from '../../src/config/serve.js';
import { UsageError } from '../../src/model/errors.js';
import { DEFAULT_MAX_EXPIRY_WAIT_S } from '../../src/model/serve-settings.js';

/** `serve` certifies with a configurable wait for quote expiry (issue 24 item 6), not a fixed 120 s. */
describe('serve --max-expiry-wait', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'provcert-serve-expiry-'));
    await writeFile(join(dir, 'serve.yaml'), 'maxExpiryWait: 300\n');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each<[string, { maxExpiryWait?: string; config?: string }, number | RegExp]>([
    ['default', {}, DEFAULT_MAX_EXPIRY_WAIT_S],
    ['flag', { maxExpiryWait: '600' }, 600],
    ['config file', { config: 'serve.yaml' }, 300],
    ['flag over config file', { config: 'serve.yaml', maxExpiryWait: '45' }, 45],
    ['zero', { maxExpiryWait: '0' }, /--max-expiry-wait must be a whole number of seconds from 1 to 3600 \(got "0"\)/],
    ['words', { maxExpiryWait: 'long' }, /--max-expiry-wait must be a whole number/],
    ['too long', { maxExpiryWait: '3601' }, /from 1 to 3600/],
  ])('%s', async (_name, raw, expected) => {
    const settings = resolveServeSettings({ dataDir: dir, ...raw }, dir);
    if (typeof expected === 'number') expect((await settings).maxExpiryWait).toBe(expected);
    else {
      await expect(settings).rejects.toThrow(UsageError);
      await expect(settings).rejects.toThrow(expected);
    }
  });
});
