import { describe, expect, it } from 'vitest';
import { spawnCli } from '../live-spawn.js';

/**
 * demo's reproduce lines reach a provider that lives only while demo runs (issue 34). What a demo without
 * --keep-alive says is in demo.int.test.ts (in-process).
 */
describe('provcert demo --keep-alive', () => {
  it('keeps the provider up, prints the export line once (stderr only), and the reproduce line then works', async () => {
    const cli = spawnCli(['demo', '--fault', 'catalog-wrong-type', '--keep-alive']);
    const [, url = '', credential = ''] = await cli.waitFor(
      /stays up at (http:\/\/127\.0\.0\.1:\d+) until Ctrl-C; to run the reproduce lines above:\n {2}export DEMO_PROVIDER_CREDENTIAL=([0-9a-f]+)\n/,
    );
    // The reproduce command of the failure, as printed: GET /catalog with the credential from the variable.
    expect(cli.stdout()).toMatch(/curl -sS -i -X GET '[^']+\/catalog'/);
    expect(cli.stdout()).toContain('"x-provider-api-key: $DEMO_PROVIDER_CREDENTIAL"');
    const answer = await fetch(`${url}/catalog`, { headers: { 'x-provider-api-key': credential } });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(await answer.json())).toContain('"12.50"');
    // The secret is in that one line and nowhere else.
    expect(cli.stdout()).not.toContain(credential);
    expect(cli.stderr().split(credential)).toHaveLength(2);
    cli.signal('SIGINT');
    expect((await cli.exit).code).toBe(130);
  });
});
