import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/package-root.js';
import { ADMIN, type Harness, startHarness } from '../console/harness.js';
import { passingReport } from '../report/sample-reports.js';

/**
 * The operator guide's "register and certify a provider on this machine" block (issue 34: the README's serve
 * example once left out --local and the register body) is a text block, so the docs replay does not run it: this
 * test reads it and sends what it shows to a core started as it says.
 */

const guide = readFileSync(join(packageRoot, 'docs/guides/operator.md'), 'utf8');
const block =
  /To register and certify a provider running on this machine[\s\S]*?```text\n([\s\S]*?)```/.exec(guide)?.[1] ?? '';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(passingReport);
});
afterAll(async () => {
  await h?.close();
});

describe("the operator guide's local registration", () => {
  it('starts the core with --local, as the refusal it would otherwise meet says', () => {
    expect(block.split('\n')[0]).toMatch(/^\S+=… npx provcert serve .*--local\b/);
  });

  it('registers with the body it shows, then certifies, with the operator token', async () => {
    expect(block).toContain('Authorization: Bearer $PROVCERT_ADMIN_TOKEN');
    const body = JSON.parse(/-d '([\s\S]*?)'/.exec(block)?.[1] ?? 'null') as Record<string, unknown>;
    expect(body['baseUrl']).toMatch(/^http:\/\/127\.0\.0\.1:/);
    // The core reads the credential from the variable the body names: the one the serve line sets.
    expect(block.split('\n')[0]?.startsWith(`${String(body['credentialEnv'])}=`)).toBe(true);
    // Here the harness's core holds it as DEMO_CREDENTIAL (test/console/harness.ts).
    const registered = await h.api('POST', '/api/v1/providers/register', { ...body, credentialEnv: 'DEMO_CREDENTIAL' });
    expect(registered.status, JSON.stringify(registered.json)).toBe(201);
    const certify = /curl -s -X POST http:\/\/127\.0\.0\.1:8787(\/api\/v1\/providers\/[^/]+\/certify)/.exec(block)?.[1];
    expect(certify).toBe(`/api/v1/providers/${String(body['slug'])}/certify`);
    const certified = await h.api('POST', certify ?? '');
    expect(certified.status, JSON.stringify(certified.json)).toBe(200);
    expect(JSON.stringify(certified.json)).not.toContain(ADMIN);
  });
});
