import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type RawServeOptions, resolveServeSettings } from '../../src/config/serve.js';
import { UsageError } from '../../src/model/errors.js';
import { scratchDir } from '../support/scratch.js';

/** `serve`'s settings named in their errors as the person gave them: the flag they typed, or the config file's key. */
describe('serve settings: each error names the flag or the config key', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await scratchDir('serve-flag-texts');
    await writeFile(join(dir, 'wait.yaml'), 'maxExpiryWait: 0\n');
  });

  it.each<[RawServeOptions, string]>([
    [{ port: '70000' }, '--port must be a port number from 0 to 65535 (got "70000")'],
    [{ port: ' ' }, '--port must be a port number from 0 to 65535 (got " ")'],
    [{ maxExpiryWait: '0' }, '--max-expiry-wait must be a whole number of seconds from 1 to 3600 (got "0")'],
    [{ config: 'wait.yaml' }, 'config maxExpiryWait must be a whole number of seconds from 1 to 3600 (got "0")'],
    [
      { webhookSecretOverlap: '1.5' },
      '--webhook-secret-overlap must be a whole number of seconds from 0 to 604800 (got "1.5")',
    ],
    [{ slug: 'ok-kitchen,Not A Slug' }, '--slug: "Not A Slug" is not a provider slug'],
  ])('%j', async (raw, message) => {
    const settings = resolveServeSettings({ dataDir: dir, ...raw }, dir);
    await expect(settings).rejects.toThrow(UsageError);
    await expect(settings).rejects.toThrow(message);
  });
});
