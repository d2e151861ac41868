import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictBase64 } from '../../../src/certificates/dsse.js';
import type { Statement } from '../../../src/certificates/statement.js';
import { engineCertifier } from '../../../src/cli/commands/serve.js';
import { resolveServeSettings } from '../../../src/config/serve.js';
import { loadContract } from '../../../src/contract/load.js';
import { verifyCertificate } from '../../../src/lib/verify-certificate.js';
import {
  ALL_CAPABILITIES,
  REFERENCE_SLUG,
  type RunningProvider,
  startReferenceProvider,
} from '../../../src/reference-provider/index.js';
import { KEYS_FILE } from '../../../src/server/certificates/key-store.js';
import { type RunningServe, startServe } from '../../../src/server/serve.js';
import { freePort } from '../../support/ports.js';
import { registration } from '../../support/registration.js';
import { scratchDir } from '../../support/scratch.js';
import { apiClient } from '../support/http-client.js';

const ADMIN = 'admin-token-certificates-31';
const PYTHON_VERIFIER = join(import.meta.dirname, '..', '..', 'certificates', 'independent_verifier.py');

/** The independent verifier (Python, python3-cryptography) on a certificate and a key set: its exit code and line. */
async function independentlyVerified(certificate: unknown, jwks: unknown): Promise<{ code: number; line: string }> {
  const [certFile, jwksFile] = [join(dataDir, 'cert.json'), join(dataDir, 'jwks-given.json')];
  await writeFile(certFile, JSON.stringify(certificate));
  await writeFile(jwksFile, JSON.stringify(jwks));
  try {
    const { stdout } = await promisify(execFile)('python3', [PYTHON_VERIFIER, certFile, jwksFile]);
    return { code: 0, line: stdout.trim() };
  } catch (e) {
    const failed = e as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, line: `${failed.stdout ?? ''}${failed.stderr ?? ''}`.trim() };
  }
}
const PROVIDER_KEY = 'provider-key-certificates-58';

let dataDir: string;
let serve: RunningServe;
let provider: RunningProvider;
let call: ReturnType<typeof apiClient>;

async function startCore(): Promise<RunningServe> {
  const settings = await resolveServeSettings({ port: '0', dataDir, local: true }, dataDir);
  const contract = await loadContract();
  return startServe(settings, {
    contract,
    certify: engineCertifier(contract, settings),
    env: { PROVCERT_ADMIN_TOKEN: ADMIN, DEMO_KEY: PROVIDER_KEY },
    cwd: dataDir,
    log: () => undefined,
  });
}

const getJson = async (path: string, token?: string) => {
  const res = await fetch(`${serve.core.url}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  dataDir = await scratchDir('serve-certificates');
  serve = await startCore();
  call = apiClient(`${serve.core.url}/api/v1`, ADMIN);
  const providerPort = await freePort();
  const answer = await call(
    'POST',
    '/providers/register',
    registration({
      slug: REFERENCE_SLUG,
      baseUrl: `http://127.0.0.1:${providerPort}`,
      capabilities: [...ALL_CAPABILITIES],
      credentialEnv: 'DEMO_KEY',
    }),
  );
  expect(answer.status).toBe(201);
  const webhook = answer.json['webhook'] as { url: string; secret: string };
  provider = await startReferenceProvider({
    port: providerPort,
    authMethod: 'API_KEY',
    credential: PROVIDER_KEY,
    webhookSecret: webhook.secret,
    webhookUrl: webhook.url,
    dataFile: join(dataDir, 'provider.json'),
  });
}, 30_000);

afterAll(async () => {
  await provider?.close();
  await serve?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('serve signs each certification as an in-toto test-result attestation', () => {
  it('issues a certificate that verifies against its JWKS, and keeps it verifiable across a key rotation', async () => {
    const certified = await call('POST', `/providers/${REFERENCE_SLUG}/certify`);
    expect(certified.status).toBe(200);
    expect(certified.json['verdict']).toBe('PASS');
    await provider.webhooksSettled();

    // Unlisted provider: the operator sees the certificate, a stranger sees no such provider.
    expect((await getJson(`/api/v1/providers/${REFERENCE_SLUG}/certificate`)).status).toBe(404);
    const got = await getJson(`/api/v1/providers/${REFERENCE_SLUG}/certificate`, ADMIN);
    expect(got.status).toBe(200);
    const certificate = got.json;
    const configDigest = got.headers.get('x-provcert-configuration-digest') ?? '';
    expect(configDigest).toMatch(/^[0-9a-f]{64}$/);
    const jwks = (await getJson('/api/v1/.well-known/jwks.json')).json;
    const keys = jwks['keys'] as { kid: string; validUntil?: string }[];
    expect(keys).toHaveLength(1);

    const statement = JSON.parse(
      (strictBase64(String(certificate['payload'])) ?? Buffer.alloc(0)).toString('utf8'),
    ) as Statement;
    expect(statement.predicateType).toBe('https://in-toto.io/attestation/test-result/v0.1');
    expect(statement.subject).toEqual([{ name: `provider:${REFERENCE_SLUG}`, digest: { sha256: configDigest } }]);
    expect(statement.predicate.result).toMatch(/^(PASSED|WARNED)$/);
    expect(statement.predicate.failedTests).toEqual([]);
    expect(statement.predicate.passedTests).toContain('check:quote-math');
    const settings = statement.predicate.configuration.find((d) => d.name === 'run-settings');
    expect(settings?.annotations?.['webhookSecretOverlapSeconds']).toBe(0);

    const verified = await verifyCertificate(certificate, { jwks, configDigest });
    expect(verified).toMatchObject({ valid: true, keyid: keys[0]?.kid });
    // A verifier written from the DSSE and in-toto specifications alone accepts it, and refuses it altered.
    expect(await independentlyVerified(certificate, jwks)).toEqual({
      code: 0,
      line: `VALID ${statement.predicate.result} provider:${REFERENCE_SLUG} ${configDigest}`,
    });
    const altered = {
      ...certificate,
      payload: Buffer.from(JSON.stringify({ ...statement, subject: [] })).toString('base64'),
    };
    expect(await independentlyVerified(altered, jwks)).toEqual({
      code: 1,
      line: 'REFUSED no signature verifies with a key of the JWKS',
    });

    // Rotation: a new key signs, the old one stays published (retired) and the old certificate still verifies.
    const rotated = await call('POST', '/admin/signing-key/rotate');
    expect(rotated.status).toBe(200);
    const after = (await getJson('/api/v1/.well-known/jwks.json')).json;
    const afterKeys = after['keys'] as { kid: string; validUntil?: string }[];
    expect(afterKeys.map((k) => k.kid)).toEqual([rotated.json['kid'], keys[0]?.kid]);
    expect(afterKeys[1]?.validUntil).toBeDefined();
    expect(await verifyCertificate(certificate, { jwks: after, configDigest })).toMatchObject({ valid: true });
    expect((await independentlyVerified(certificate, after)).code).toBe(0);
    // The key set without the retired key no longer vouches for it.
    const withoutOld = { keys: afterKeys.slice(0, 1) };
    const refused = await verifyCertificate(certificate, { jwks: withoutOld });
    expect(refused).toEqual({ valid: false, reason: expect.stringContaining('not among the trusted keys') });

    // The retired key's private half is gone from the data dir; a restart keeps the same keys.
    const stored = JSON.parse(await readFile(join(dataDir, KEYS_FILE), 'utf8')) as { keys: Record<string, unknown>[] };
    expect(stored.keys.filter((k) => k['privateKeyPem'] !== undefined).map((k) => k['kid'])).toEqual([
      rotated.json['kid'],
    ]);
    await serve.close();
    serve = await startCore();
    expect((await getJson('/api/v1/.well-known/jwks.json')).json).toEqual(after);
  }, 120_000);
});
