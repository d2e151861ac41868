import { describe, expect, it } from 'vitest';
import { nearMiss } from '../../src/http/auth.js';
import type { NearMissChange } from '../../src/http/types.js';
import type { AuthMethod } from '../../src/model/contract-constants.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { isRecord } from '../../src/util/json.js';
import { certifyThroughProxy, TEST_CREDENTIAL, TEST_WEBHOOK_SECRET } from '../support/certify.js';

const CHANGES: NearMissChange[] = ['drop-last', 'append', 'swap-case', 'nbsp-around', 'space-before', 'upper-case'];

/**
 * A hostile provider for the authentication table: every refusal repeats the header it was sent (the
 * error-echoes-credential fault) under a code provcert does not accept, so every probe's answer is kept as evidence.
 */
const echoedUnderWrongCode = (json: unknown): unknown =>
  isRecord(json) && json['code'] === 'UNAUTHORIZED' ? { ...json, code: 'FORBIDDEN' } : json;

describe('authentication probes against a provider that repeats every credential it is sent', () => {
  it.each<AuthMethod>(['API_KEY', 'BEARER_TOKEN'])(
    '%s: each near miss fails, and no report shows the credential, the webhook secret or a near miss of either',
    async (authMethod) => {
      const { report } = await certifyThroughProxy(
        { authMethod, only: ['wrong-credential'], faults: ['error-echoes-credential'] },
        { rule: () => ({ rewrite: echoedUnderWrongCode }) },
      );
      const check = report.checks.find((c) => c.id === 'wrong-credential');
      expect(check?.status).toBe('fail');
      expect(check?.details?.join('\n')).toMatch(
        /with the credential's letter case swapped was answered HTTP 401 with code FORBIDDEN/,
      );
      const bodies = check?.evidence.map((e) => e.response?.body ?? '').join('\n') ?? '';
      expect(bodies).toContain('receivedHeaders');
      const shown = [JSON.stringify(report), renderMarkdown(report)];
      for (const secret of [TEST_CREDENTIAL, TEST_WEBHOOK_SECRET])
        for (const value of [secret, ...CHANGES.map((c) => nearMiss(secret, c).trim())])
          for (const output of shown) expect(output, value).not.toContain(value);
    },
  );
});
