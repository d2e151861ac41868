import { describe, expect, it } from 'vitest';
import { runMain } from '../support/cli-io.js';
import { scratchDirSync } from '../support/scratch.js';

const env = { PROVIDER_API_KEY: 'local-refusal-key-19e' };

/**
 * `run` without --local against an address hosted certification cannot reach is refused before any request (issue
 * 34: it used to create test orders and wait out the webhooks before saying so).
 */
describe('run against a loopback or private address without --local', () => {
  it.each([
    ['http://127.0.0.1:4010', '127.0.0.1', /loopback/],
    ['http://localhost:3000/api', 'localhost', /is localhost/],
    ['https://10.1.2.3', '10.1.2.3', /private/],
  ])('%s: exit 2, one line naming --local', async (baseUrl, host, reason) => {
    const dir = scratchDirSync('local-refusal');
    const { code, err, out } = await runMain(dir, ['run', '--base-url', baseUrl, '--auth', 'API_KEY'], { env });
    expect(code).toBe(2);
    expect(out).toBe('');
    const first = err.split('\n')[0] ?? '';
    expect(first).toContain(`--base-url ${baseUrl}: the host ${host} `);
    expect(first).toMatch(reason);
    expect(first).toContain('pass --local to certify a provider on this machine or network');
    expect(err).not.toMatch(/\n\s+at /); // no stack trace
  });
});
