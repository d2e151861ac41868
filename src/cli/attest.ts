import type { KeyObject } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { signStatement } from '../certificates/certificate.js';
import { privateKeyFromPem } from '../certificates/keys.js';
import { shippedDigests } from '../certificates/shipped.js';
import { buildStatement } from '../certificates/statement.js';
import { UsageError } from '../model/errors.js';
import type { RunReport } from '../model/report.js';

/** `run --attest FILE --attest-key KEYFILE`: where the certificate goes and the key that signs it, read before the run. */
export interface Attestation {
  file: string;
  key: KeyObject;
}

export async function readAttestation(
  given: { attest?: string | undefined; attestKey?: string | undefined },
  cwd: string,
): Promise<Attestation | undefined> {
  if (given.attest === undefined && given.attestKey === undefined) return undefined;
  if (given.attest === undefined || given.attestKey === undefined)
    throw new UsageError(
      '--attest FILE and --attest-key PEMFILE go together (the certificate and the key that signs it)',
    );
  let pem: string;
  try {
    pem = await readFile(resolve(cwd, given.attestKey), 'utf8');
  } catch (e) {
    throw new UsageError(
      `cannot read --attest-key ${given.attestKey} (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  try {
    return { file: resolve(cwd, given.attest), key: privateKeyFromPem(pem) };
  } catch (e) {
    throw new UsageError(`--attest-key ${given.attestKey}: ${(e as Error).message}`);
  }
}

/** Writes the run's signed in-toto statement (the same as serve's, issued by "local run"). */
export async function writeAttestation(report: RunReport, attestation: Attestation, now: Date): Promise<void> {
  const p = report.provider;
  const statement = buildStatement({
    report,
    provider: {
      ...(p.slug !== undefined ? { slug: p.slug } : {}),
      baseUrl: p.baseUrl,
      authMethod: p.authMethod,
      capabilities: p.capabilities,
      ...(p.fulfillment !== undefined ? { fulfillment: p.fulfillment } : {}),
    },
    ...(p.profile !== undefined ? { profile: p.profile } : {}),
    ...shippedDigests(),
    issuedAt: now.toISOString(),
    issuer: 'local run',
  });
  try {
    await writeFile(attestation.file, `${JSON.stringify(signStatement(statement, attestation.key), null, 2)}\n`);
  } catch (e) {
    throw new UsageError(`cannot write --attest ${attestation.file} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}
