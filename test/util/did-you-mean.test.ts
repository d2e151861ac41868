import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/framework/registry.js';
import { runMain } from '../support/cli-io.js';
import { scratchDir } from '../support/scratch.js';

const KEY = 'did-you-mean-provider-key-51c0';
let dir: string;

beforeAll(async () => {
  dir = await scratchDir('did-you-mean');
  await writeFile(join(dir, 'offering.json'), '{}');
});

describe('did you mean, as the CLI says it', () => {
  const RUN = ['run', '--base-url', 'http://127.0.0.1:1', '--auth', 'API_KEY'];
  it.each([
    [
      'a schema name with a typo',
      ['validate', 'Ofering', 'offering.json'],
      'provcert: unknown schema "Ofering" (did you mean Offering?); see provcert',
    ],
    [
      'a schema name in the wrong case',
      ['validate', 'offering', 'offering.json'],
      'provcert: unknown schema "offering" (did you mean Offering?); see provcert',
    ],
    [
      'a check id in --only',
      [...RUN, '--only', 'quote-mth'],
      'provcert: --only: unknown check id "quote-mth" (did you mean quote-math?); known ids: ',
    ],
    [
      'a check id in --skip',
      [...RUN, '--skip', 'webhooks'],
      'provcert: --skip: unknown check id "webhooks" (did you mean webhook?); known ids: ',
    ],
    [
      'a fault name',
      ['mock-provider', '--fault', 'quote-totl-wrong'],
      'provcert: unknown fault quote-totl-wrong (did you mean quote-total-wrong?)',
    ],
  ])('%s', async (_name, args, line) => {
    const { code, err } = await runMain(dir, args, { env: { PROVIDER_API_KEY: KEY } });
    expect(code).toBe(2);
    expect(err.startsWith(line), err).toBe(true);
  });

  it('no suggestion for a name that is not close to any', async () => {
    const { code, err } = await runMain(dir, [...RUN, '--only', 'zzzzzz'], { env: { PROVIDER_API_KEY: KEY } });
    expect(code).toBe(2);
    expect(err).toContain(`unknown check id "zzzzzz"; known ids: ${CHECKS.map((c) => c.id).join(', ')}`);
  });
});
