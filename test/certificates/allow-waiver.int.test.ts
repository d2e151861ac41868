import { beforeAll, describe, expect, it } from 'vitest';
import { signStatement } from '../../src/certificates/certificate.js';
import { shippedDigests } from '../../src/certificates/shipped.js';
import type { Statement } from '../../src/certificates/statement.js';
import { trustedKeysFromJwks } from '../../src/certificates/trusted-keys.js';
import { type VerifyPolicy, verifyCertificateWith } from '../../src/certificates/verify.js';
import { requiredChecksFor } from '../../src/checks/framework/registry.js';
import { loadContract } from '../../src/contract/load.js';
import { type Issued, issueForReferenceRun } from './support/valid-certificate.js';

/**
 * `--allow-waiver` takes check ids and, for a waiver naming a requirement alone (issue 34), requirement ids: each
 * waived test of the certificate must be one the policy names.
 */
let issued: Issued;
let policy: VerifyPolicy;

beforeAll(async () => {
  issued = await issueForReferenceRun();
  const contract = await loadContract();
  policy = {
    keys: trustedKeysFromJwks(issued.jwks),
    shipped: shippedDigests(),
    requiredChecks: (c) => requiredChecksFor(contract, c),
    now: new Date(issued.issuedAt.getTime() + 60_000),
  };
}, 120_000);

/** The issued statement with quote-math and QUOTE-TOTAL-FORMULA waived, signed with the trusted key. */
function waivedCertificate(): unknown {
  const s: Statement = structuredClone(issued.statement);
  const p = s.predicate;
  for (const name of ['check:quote-math', 'requirement:QUOTE-TOTAL-FORMULA']) {
    p.passedTests = p.passedTests.filter((t) => t !== name);
    p.warnedTests = [...p.warnedTests.filter((t) => t !== name), `waived:${name}`];
  }
  p.result = 'WARNED';
  return signStatement(s, issued.key);
}

describe('verify --allow-waiver', () => {
  it.each<[string, string[], RegExp | undefined]>([
    [
      'no waiver allowed: the waived check is refused',
      [],
      /check:quote-math is waived, and the policy allows no waiver/,
    ],
    [
      'the check alone: its waived requirement is still refused, named',
      ['quote-math'],
      /requirement:QUOTE-TOTAL-FORMULA is waived, and the policy allows no waiver for it/,
    ],
    [
      'the requirement alone: the waived check is still refused, named',
      ['QUOTE-TOTAL-FORMULA'],
      /check:quote-math is waived, and the policy allows no waiver for it/,
    ],
    ['the check and the requirement: accepted', ['quote-math', 'QUOTE-TOTAL-FORMULA'], undefined],
  ])('%s', (_name, allowWaivers, refused) => {
    const v = verifyCertificateWith(waivedCertificate(), { ...policy, allowWaivers });
    if (refused === undefined) expect(v).toMatchObject({ valid: true });
    else expect(v.valid ? 'valid' : v.reason).toMatch(refused);
  });
});
