import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { curlFor } from '../../src/http/reproduce.js';
import type { CheckId } from '../../src/model/check-ids.js';
import type { AuthMethod } from '../../src/model/contract-constants.js';
import { type FaultName, REFERENCE_SLUG, startReferenceProvider } from '../../src/reference-provider/index.js';
import { runCertification } from '../../src/runner/run.js';
import { startCoreServer } from '../../src/server/core-server.js';
import { TEST_CREDENTIAL, TEST_WEBHOOK_SECRET, testConfig } from '../support/certify.js';
import { scratchDir } from '../support/scratch.js';

function bash(script: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', script], { env: { PATH: process.env['PATH'] ?? '', ...env } }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

/** Status and JSON body of a `curl -i` answer. */
function parseCurl(output: string): { status: number; text: string } {
  const [head = '', ...rest] = output.split(/\r?\n\r?\n/);
  return { status: Number(/^HTTP\/[\d.]+ (\d{3})/.exec(head)?.[1]), text: rest.join('\n\n') };
}

describe('reproduce commands send the failing request again', () => {
  it.each([
    ['wrong-credential-accepted', 'wrong-credential', 'API_KEY'],
    ['missing-credential-accepted', 'wrong-credential', 'BEARER_TOKEN'],
    ['quote-total-wrong', 'quote-math', 'HMAC_SIGNATURE'],
    ['bad-signature-accepted', 'signature', 'HMAC_SIGNATURE'],
    ['offering-disagrees', 'offering', 'BEARER_TOKEN'],
    // Near misses: the shell changes the credential (or the signature) the same way the client did.
    ['credential-prefix-accepted', 'wrong-credential', 'BEARER_TOKEN'],
    ['credential-trimmed', 'wrong-credential', 'API_KEY'],
    ['credential-any-header', 'wrong-credential', 'API_KEY'],
    ['signature-truncated-accepted', 'signature', 'HMAC_SIGNATURE'],
    ['bearer-scheme-unchecked', 'wrong-credential', 'BEARER_TOKEN'],
  ] as [FaultName, CheckId, AuthMethod][])(
    '%s (%s, %s): same status and body as the evidence',
    async (fault, checkId, authMethod) => {
      const contract = await loadContract();
      const scratch = await scratchDir('repro');
      const core = await startCoreServer({
        host: '127.0.0.1',
        port: 0,
        dataDir: join(scratch, 'core'),
        contract,
        secretFor: () => TEST_WEBHOOK_SECRET,
      });
      const provider = await startReferenceProvider({
        authMethod,
        credential: TEST_CREDENTIAL,
        webhookSecret: TEST_WEBHOOK_SECRET,
        webhookUrl: core.urlFor(REFERENCE_SLUG),
        faults: [fault],
        dataFile: join(scratch, 'provider.json'),
      });
      try {
        const report = await runCertification(testConfig(provider.url, { auth: authMethod, only: [checkId] }), {
          contract,
          credential: TEST_CREDENTIAL,
          webhookSecret: TEST_WEBHOOK_SECRET,
          inbox: core,
        });
        const check = report.checks.find((c) => c.id === checkId);
        expect(check?.status).toBe('fail');
        expect(check?.reproduce).toBeDefined();
        expect(check?.reproduce).not.toContain(TEST_CREDENTIAL);
        const answer = parseCurl(await bash(check?.reproduce ?? '', { PROVIDER_API_KEY: TEST_CREDENTIAL }));
        // The evidence of the request the command sends: a check keeps several (one per probe of a table).
        const source = { kind: 'env', name: 'PROVIDER_API_KEY' } as const;
        const shown = (check?.evidence ?? []).find(
          (e) => e.response && curlFor(e, authMethod, source) === check?.reproduce,
        );
        expect(shown, 'the reproduced request is among the evidence').toBeDefined();
        expect(answer.status).toBe(shown?.response?.status);
        const kept = shown?.response?.body ?? '';
        if (shown?.response?.truncated) {
          // Evidence keeps the first 4 KiB of a large body: the same answer starts with it.
          expect(answer.text.startsWith(kept.replace(/…$/, ''))).toBe(true);
        } else {
          // Ids and timestamps differ between two quotes; everything else must be the same answer.
          const stable = (text: string): unknown =>
            JSON.parse(text, (k: string, x: unknown) =>
              ['id', 'expiresAt', 'createdAt', 'updatedAt', 'timestamp', 'latencyMs'].includes(k) ? '*' : x,
            );
          expect(stable(answer.text)).toEqual(stable(kept));
        }
      } finally {
        await provider.close();
        await core.close();
      }
    },
  );
});
