import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { type Certificate, signStatement } from '../../../src/certificates/certificate.js';
import { publicJwkOf } from '../../../src/certificates/keys.js';
import { shippedDigests } from '../../../src/certificates/shipped.js';
import { buildStatement, type Statement } from '../../../src/certificates/statement.js';
import type { RunReport } from '../../../src/model/report.js';
import { REFERENCE_SLUG } from '../../../src/reference-provider/index.js';
import { certify } from '../../support/certify.js';

export interface Issued {
  report: RunReport;
  statement: Statement;
  certificate: Certificate;
  key: KeyObject;
  jwks: { keys: ReturnType<typeof publicJwkOf>[] };
  issuedAt: Date;
}

export const ISSUED_AT = new Date('2026-11-27T12:00:00.000Z');

/** A certificate of a real passing run of the reference provider, signed with a fresh key (as `run --attest` does). */
export async function issueForReferenceRun(): Promise<Issued> {
  const { report } = await certify();
  const { privateKey: key } = generateKeyPairSync('ed25519');
  const statement = buildStatement({
    report,
    provider: {
      slug: REFERENCE_SLUG,
      baseUrl: report.provider.baseUrl,
      authMethod: report.provider.authMethod,
      capabilities: report.provider.capabilities,
      ...(report.provider.fulfillment ? { fulfillment: report.provider.fulfillment } : {}),
    },
    ...(report.provider.profile ? { profile: report.provider.profile } : {}),
    ...shippedDigests(),
    issuedAt: ISSUED_AT.toISOString(),
    issuer: 'local run',
  });
  return {
    report,
    statement,
    certificate: signStatement(statement, key),
    key,
    jwks: { keys: [publicJwkOf(key)] },
    issuedAt: ISSUED_AT,
  };
}
