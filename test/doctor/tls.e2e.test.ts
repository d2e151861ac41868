import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { PeerCertificate } from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctorExitCode, runDoctor } from '../../src/doctor/doctor.js';
import { judgeCertificate } from '../../src/doctor/tls.js';
import { spellAsConfigKey } from '../../src/model/setting-speller.js';
import { scratchDir } from '../support/scratch.js';
import { byId, providerApi, startHttpsServer, startServer, type TestServer } from './support.js';

const SECRET = 'pk_test_tls_7a2b';
let dir: string;
let tlsMaterial: { key: string; cert: string } | undefined;

beforeAll(async () => {
  dir = await scratchDir('tls');
  try {
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=localhost',
      '-days',
      '1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ]);
    tlsMaterial = {
      key: await readFile(join(dir, 'key.pem'), 'utf8'),
      cert: await readFile(join(dir, 'cert.pem'), 'utf8'),
    };
  } catch (e) {
    console.warn(
      `openssl is not available (${(e as Error).message.split('\n')[0] ?? ''}): the self-signed certificate cases assert only the non-TLS findings; install openssl to run them fully`,
    );
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const doctor = (baseUrl: string) =>
  runDoctor({
    baseUrl,
    // The product's default: a TLS handshake with a local server can take seconds on a loaded machine.
    timeoutMs: 10_000,
    authMethod: 'API_KEY',
    credential: { value: SECRET, source: 'PROVIDER_API_KEY' },
    spell: spellAsConfigKey,
  });

async function withServer<T>(start: () => Promise<TestServer>, use: (server: TestServer) => Promise<T>): Promise<T> {
  const server = await start();
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}

/** Without openssl: the same provider over plain http still gets its non-TLS findings checked. */
async function assertNonTlsDiagnoses(): Promise<void> {
  const findings = await withServer(
    () => startServer(providerApi({ method: 'API_KEY', secret: SECRET })),
    (s) => doctor(s.url),
  );
  expect(byId(findings, 'tcp').status).toBe('ok');
  expect(byId(findings, 'tls').status).toBe('skip');
  expect(byId(findings, 'routes').status).toBe('ok');
  expect(byId(findings, 'auth').status).toBe('ok');
}

describe('doctor: TLS', () => {
  it('a self-signed certificate is a clear failure, and the HTTP findings are skipped naming it', async () => {
    const handler = providerApi({ method: 'API_KEY', secret: SECRET });
    if (!tlsMaterial) return assertNonTlsDiagnoses();
    const material = tlsMaterial;
    const findings = await withServer(
      () => startHttpsServer(handler, material, 'localhost'),
      (s) => doctor(`${s.url}/`),
    );
    expect(byId(findings, 'tcp').status).toBe('ok');
    const tls = byId(findings, 'tls');
    expect(tls.status).toBe('fail');
    expect(tls.detail).toContain('the certificate is self-signed');
    expect(tls.detail).not.toContain('not localhost');
    expect(tls.fix).toContain('public CA');
    for (const id of ['frontend', 'routes', 'auth', 'latency'] as const)
      expect(byId(findings, id)).toMatchObject({
        status: 'skip',
        detail: 'skipped: the TLS certificate is refused (see tls)',
      });
    expect(doctorExitCode(findings)).toBe(1);
  });

  it('a certificate for another name: the hostname mismatch is named', async () => {
    if (!tlsMaterial) return assertNonTlsDiagnoses();
    const material = tlsMaterial;
    const findings = await withServer(
      () => startHttpsServer(providerApi({ method: 'API_KEY', secret: SECRET }), material, '127.0.0.1'),
      (s) => doctor(s.url),
    );
    expect(byId(findings, 'tls').detail).toContain('the certificate is for localhost, not 127.0.0.1');
  });

  it('https:// to a port that speaks plain HTTP: the handshake failure says so', async () => {
    const findings = await withServer(
      () => startServer(providerApi({ method: 'API_KEY', secret: SECRET })),
      (s) => doctor(s.url.replace('http://', 'https://')),
    );
    const tls = byId(findings, 'tls');
    expect(tls.status).toBe('fail');
    expect(tls.detail).toContain('the server does not speak HTTPS on this port');
  });
});

describe('judgeCertificate', () => {
  const cert = (from: string, to: string): PeerCertificate =>
    ({
      subject: { CN: 'api.example.com' },
      subjectaltname: 'DNS:api.example.com',
      valid_from: from,
      valid_to: to,
    }) as unknown as PeerCertificate;
  const now = new Date('2025-06-01T00:00:00Z');
  const cases: Array<[string, PeerCertificate, string, string | undefined, string[]]> = [
    [
      'valid and trusted',
      cert('Jan  1 00:00:00 2025 GMT', 'Jan  1 00:00:00 2026 GMT'),
      'api.example.com',
      undefined,
      [],
    ],
    [
      'expired',
      cert('Jan  1 00:00:00 2024 GMT', 'Jan  1 00:00:00 2025 GMT'),
      'api.example.com',
      'CERT_HAS_EXPIRED',
      ['the certificate expired on 2025-01-01T00:00:00.000Z'],
    ],
    [
      'not yet valid',
      cert('Jan  1 00:00:00 2026 GMT', 'Jan  1 00:00:00 2027 GMT'),
      'api.example.com',
      'CERT_NOT_YET_VALID',
      ['the certificate is not valid before 2026-01-01T00:00:00.000Z'],
    ],
    [
      'other host',
      cert('Jan  1 00:00:00 2025 GMT', 'Jan  1 00:00:00 2026 GMT'),
      'shop.example.com',
      undefined,
      ['the certificate is for api.example.com, not shop.example.com'],
    ],
    [
      'incomplete chain',
      cert('Jan  1 00:00:00 2025 GMT', 'Jan  1 00:00:00 2026 GMT'),
      'api.example.com',
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      ['the certificate chain is incomplete or from an untrusted CA'],
    ],
  ];
  for (const [name, c, host, authError, problems] of cases) {
    it(name, () => {
      expect(judgeCertificate(host, c, authError, now).problems).toEqual(problems);
    });
  }
});
