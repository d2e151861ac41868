import { generateKeyPairSync } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Certificate } from '../../../src/certificates/certificate.js';
import { parseMaxAge } from '../../../src/cli/commands/verify.js';
import { REFERENCE_SLUG } from '../../../src/reference-provider/index.js';
import { runCli } from '../../support/cli.js';
import { type ClockedReference, startClockedReference } from '../../support/cli-clock.js';
import { scratchDir } from '../../support/scratch.js';

const CREDENTIAL = 'attest-credential-4Tq9';
const SECRET = 'attest-webhook-secret-8Kd2';
const env = { PROVIDER_API_KEY: CREDENTIAL, SERVICE_WEBHOOK_SECRET: SECRET };

/*
 * The attested run in-process on a manual clock (test/support/cli-clock.ts); the certificate checked through the
 * built CLI, and its refusals in-process.
 */
let reference: ClockedReference;
let dir: string;
const files = { cert: '', key: '', pub: '', otherPub: '', jwks: '' };

beforeAll(async () => {
  dir = await scratchDir('attest');
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const other = generateKeyPairSync('ed25519').publicKey;
  Object.assign(files, {
    cert: join(dir, 'cert.json'),
    key: join(dir, 'ci-key.pem'),
    pub: join(dir, 'ci-key.pub.pem'),
    otherPub: join(dir, 'other.pub.pem'),
    jwks: join(dir, 'jwks.json'),
  });
  await writeFile(files.key, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  await writeFile(files.pub, publicKey.export({ type: 'spki', format: 'pem' }));
  await writeFile(files.otherPub, other.export({ type: 'spki', format: 'pem' }));
  reference = await startClockedReference({ credential: CREDENTIAL, webhookSecret: SECRET });
  const run = await reference.runCli(
    [
      'run',
      '--base-url',
      reference.url,
      '--auth',
      'api-key',
      '--local',
      '--webhook-port',
      String(reference.webhookPort),
      '--webhook-timeout',
      '10000',
      '--attest',
      files.cert,
      '--attest-key',
      files.key,
    ],
    { env, cwd: dir },
  );
  expect(run.code, run.stdout + run.stderr).toBe(0);
}, 150_000);

afterAll(async () => {
  await reference?.close();
});

describe('provcert run --attest and provcert verify', () => {
  it('verifies the certificate of a passing run with the signer’s public key through the built CLI: exit 0, naming the subject', async () => {
    const r = await runCli(['verify', files.cert, '--key', files.pub, '--max-age', '1h']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `^certificate valid: provider:${REFERENCE_SLUG} (PASSED|WARNED), configuration sha256 [0-9a-f]{64}, issued `,
      ),
    );
  });

  it('refuses with exit 1 naming the first reason: another key, an altered payload, another configuration', async () => {
    const cert = JSON.parse(await readFile(files.cert, 'utf8')) as Certificate;
    const altered = join(dir, 'altered.json');
    const statement = JSON.parse(Buffer.from(cert.payload, 'base64').toString('utf8')) as Record<string, unknown>;
    await writeFile(
      altered,
      JSON.stringify({
        ...cert,
        payload: Buffer.from(JSON.stringify({ ...statement, subject: [] })).toString('base64'),
      }),
    );
    const cases: [string[], RegExp][] = [
      [
        ['verify', files.cert, '--key', files.otherPub],
        /^certificate refused: signed by key id ".+", which is not among the trusted keys\n$/,
      ],
      [['verify', altered, '--key', files.pub], /^certificate refused: the signature of key .+ does not verify/],
      [
        ['verify', files.cert, '--key', files.pub, '--config-digest', '0'.repeat(64)],
        /^certificate refused: it certifies configuration [0-9a-f]{64}, not the provider's current 0{64}\n$/,
      ],
    ];
    for (const [args, says] of cases) {
      const r = await reference.runCli(args, { cwd: dir });
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: '' });
      expect(r.stdout).toMatch(says);
    }
  });

  it('exits 2 with one line on unusable input', async () => {
    await writeFile(files.jwks, '{"keys": "none"}');
    const cases: [string[], RegExp][] = [
      [['verify', files.cert], /name the keys to trust: --jwks URL\|FILE or --key PEMFILE/],
      [
        ['verify', join(dir, 'missing.json'), '--key', files.pub],
        /cannot read the certificate .*missing\.json \(ENOENT\)/,
      ],
      [['verify', files.cert, '--key', files.key.replace('.pem', '.nope')], /cannot read --key/],
      [['verify', files.cert, '--jwks', files.jwks], /--jwks .*: it is not a JWKS/],
      [['verify', files.cert, '--key', files.pub, '--max-age', 'soon'], /--max-age must be a positive duration/],
      [['verify', files.pub, '--key', files.pub], /the certificate .* is not JSON/],
    ];
    for (const [args, says] of cases) {
      const r = await reference.runCli(args, { cwd: dir });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(says);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('reads --max-age in seconds, minutes, hours and days', () => {
    expect([parseMaxAge('90'), parseMaxAge('2m'), parseMaxAge('1h'), parseMaxAge('30d')]).toEqual([
      90_000, 120_000, 3_600_000, 2_592_000_000,
    ]);
  });
});
