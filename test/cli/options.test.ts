import { describe, expect, it } from 'vitest';
import { suggestedBaseUrl } from '../../src/cli/options.js';
import { runMain } from '../support/cli-io.js';
import { scratchDir } from '../support/scratch.js';

describe('--base-url without a scheme suggests the URL it most likely means', () => {
  it.each<[string, boolean, string | undefined]>([
    ['localhost:3000', false, 'did you mean --base-url http://localhost:3000 --local?'],
    ['localhost:3000', true, 'did you mean --base-url http://localhost:3000?'],
    ['127.0.0.1:8080/api', false, 'did you mean --base-url http://127.0.0.1:8080/api --local?'],
    ['192.168.1.20:3000', false, 'did you mean --base-url http://192.168.1.20:3000 --local?'],
    ['provider.example.com/api', false, 'did you mean --base-url https://provider.example.com/api?'],
    ['ftp://provider.example.com', false, undefined],
    ['', false, undefined],
  ])('%j (--local %s)', (value, local, want) => {
    expect(suggestedBaseUrl(value, local)).toBe(want);
  });

  it('prints the suggestion under the error', async () => {
    const dir = await scratchDir('cli-options');
    const { code, err } = await runMain(dir, ['run', '--base-url', 'localhost:3000', '--auth', 'API_KEY'], {
      env: { PROVIDER_API_KEY: 'cli-options-provider-key-51c0' },
    });
    expect(code).toBe(2);
    expect(err).toBe(
      'provcert: --base-url must be http(s), got localhost:\n  did you mean --base-url http://localhost:3000 --local?\n',
    );
  });
});
