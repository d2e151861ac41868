import { generateKeyPairSync } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createLocalJWKSet, importPKCS8, type JWK, jwtVerify, SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashToken, providerToken } from '../../../src/server/review/provider-token.js';
import type { RunningServe } from '../../../src/server/serve.js';
import { registration } from '../../support/registration.js';
import { scratchDir } from '../../support/scratch.js';
import { ADMIN, call, createAccount, startCore } from './support.js';

let dataDir: string;
let serve: RunningServe;

beforeEach(async () => {
  dataDir = await scratchDir('core-tokens');
  serve = await startCore(dataDir);
});
afterEach(async () => {
  await serve.close();
});

/** The published key set, read over HTTP as any verifier would. */
async function publishedJwks(): Promise<{ keys: JWK[] }> {
  return (await (await fetch(`${serve.core.url}/api/v1/.well-known/jwks.json`)).json()) as { keys: JWK[] };
}

/** Verified here with jose and the published JWKS only, independently of the server's own verification. */
async function verifiedClaims(token: string) {
  const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(await publishedJwks()), {
    issuer: 'provcert-serve',
    audience: 'provcert-core',
    algorithms: ['EdDSA'],
  });
  return { payload, protectedHeader };
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The core's current private key, read from its data dir (the test stands in for a thief of that file). */
async function corePrivateKey() {
  const file = JSON.parse(await readFile(join(dataDir, 'signing-keys.json'), 'utf8')) as {
    keys: { kid: string; privateKeyPem?: string }[];
  };
  const current = file.keys.find((k) => k.privateKeyPem !== undefined);
  if (!current?.privateKeyPem) throw new Error('no current key in the data dir');
  return { kid: current.kid, key: await importPKCS8(current.privateKeyPem, 'EdDSA') };
}

describe('tokens the core issues are JWTs that verify against its JWKS', { timeout: 300_000 }, () => {
  it('account, provider and admin tokens carry iss, sub, aud, exp, iat, jti and the role', async () => {
    const account = await createAccount(serve, 'Demo Kitchen GmbH');
    const registered = await call(serve, account.token, 'POST', '/providers/register', registration());
    expect(registered.status).toBe(201);
    const providerToken = (registered.json['providerToken'] as { token: string }).token;
    const admin = await call(serve, ADMIN, 'POST', '/admin/tokens');
    expect(admin.status).toBe(201);
    const adminToken = admin.json['token'] as string;
    const { keys } = await publishedJwks();
    for (const [token, role, sub] of [
      [account.token, 'account', account.id],
      [providerToken, 'provider', 'demo-kitchen'],
      [adminToken, 'admin', 'operator'],
    ] as const) {
      const { payload, protectedHeader } = await verifiedClaims(token);
      expect(protectedHeader).toMatchObject({ alg: 'EdDSA', kid: keys[0]?.kid });
      expect(payload).toMatchObject({ role, sub, iss: 'provcert-serve', aud: 'provcert-core' });
      expect(typeof payload.jti).toBe('string');
      expect(payload.exp).toBeGreaterThan(payload.iat ?? Number.POSITIVE_INFINITY);
    }
    expect((await call(serve, adminToken, 'GET', '/admin/providers')).status).toBe(200);
    expect((await call(serve, providerToken, 'GET', '/providers/me/dashboard')).status).toBe(200);
  });

  it('a token stays valid after the signing key rotates (its key is retired, still published)', async () => {
    const account = await createAccount(serve, 'Before Rotation');
    expect((await call(serve, ADMIN, 'POST', '/admin/signing-key/rotate')).status).toBe(200);
    await verifiedClaims(account.token);
    expect((await call(serve, account.token, 'GET', '/account/providers')).status).toBe(200);
    const later = await createAccount(serve, 'After Rotation');
    const { protectedHeader } = await verifiedClaims(later.token);
    expect(protectedHeader.kid).toBe((await publishedJwks()).keys[0]?.kid);
  });

  it('a revoked jti is refused, naming the revocation, also after a restart', async () => {
    const account = await createAccount(serve, 'Revoked Ltd');
    const admin = await call(serve, ADMIN, 'POST', '/admin/tokens');
    const adminToken = admin.json['token'] as string;
    expect((await call(serve, account.token, 'GET', '/account/providers')).status).toBe(200);
    const revoked = await call(serve, adminToken, 'POST', `/admin/tokens/${account.jti}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.json).toMatchObject({ jti: account.jti, role: 'account', sub: account.id });
    for (const attempt of [1, 2]) {
      const refused = await call(serve, account.token, 'GET', '/account/providers');
      expect(refused.status, `attempt ${attempt}`).toBe(401);
      expect(refused.json['message']).toMatch(/the token was revoked/);
      expect(JSON.stringify(refused.json)).not.toContain(account.token);
      await serve.close();
      serve = await startCore(dataDir);
    }
    expect((await call(serve, ADMIN, 'POST', '/admin/tokens/no-such-jti/revoke')).status).toBe(404);
    // The operator gives the account a new token; the revoked one stays refused.
    const renewed = await call(serve, ADMIN, 'POST', `/admin/accounts/${account.id}/tokens`);
    expect(renewed.status).toBe(201);
    expect((await call(serve, renewed.json['token'] as string, 'GET', '/account/providers')).status).toBe(200);
    expect((await call(serve, account.token, 'GET', '/account/providers')).status).toBe(401);
    // Revoking the admin token itself: it is refused from then on too.
    const adminJti = admin.json['jti'] as string;
    expect((await call(serve, adminToken, 'POST', `/admin/tokens/${adminJti}/revoke`)).status).toBe(200);
    expect((await call(serve, adminToken, 'GET', '/admin/providers')).status).toBe(401);
  });

  it.each<[string, (valid: string) => Promise<string>]>([
    [
      'signed by another key under the core key id',
      async (valid) => {
        const { privateKey } = generateKeyPairSync('ed25519');
        const [header, payload] = valid.split('.');
        const forged = await new SignJWT(JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()))
          .setProtectedHeader(JSON.parse(Buffer.from(header ?? '', 'base64url').toString()))
          .sign(privateKey);
        return forged;
      },
    ],
    [
      'alg none',
      async (valid) => {
        const [, payload] = valid.split('.');
        return `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`;
      },
    ],
    [
      'a tampered payload (role raised to admin)',
      async (valid) => {
        const [header, payload, signature] = valid.split('.');
        const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
        return `${header}.${b64({ ...claims, role: 'admin' })}.${signature}`;
      },
    ],
    [
      'expired (signed with the core key)',
      async () => {
        const { kid, key } = await corePrivateKey();
        const past = Math.floor(Date.now() / 1000) - 3600;
        return new SignJWT({ role: 'admin' })
          .setProtectedHeader({ alg: 'EdDSA', kid })
          .setIssuer('provcert-serve')
          .setAudience('provcert-core')
          .setSubject('operator')
          .setJti('expired-1')
          .setIssuedAt(past - 60)
          .setExpirationTime(past)
          .sign(key);
      },
    ],
    [
      'another audience (signed with the core key)',
      async () => {
        const { kid, key } = await corePrivateKey();
        return new SignJWT({ role: 'admin' })
          .setProtectedHeader({ alg: 'EdDSA', kid })
          .setIssuer('provcert-serve')
          .setAudience('someone-else')
          .setSubject('operator')
          .setJti('aud-1')
          .setIssuedAt()
          .setExpirationTime('1h')
          .sign(key);
      },
    ],
    [
      'HS256 keyed with the public key (algorithm confusion)',
      async (valid) => {
        const [, payload] = valid.split('.');
        const { keys } = await publishedJwks();
        const secret = new TextEncoder().encode(JSON.stringify(keys[0]));
        const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
        return new SignJWT({ ...claims, role: 'admin' })
          .setProtectedHeader({ alg: 'HS256', kid: keys[0]?.kid ?? '' })
          .sign(secret);
      },
    ],
  ])('a token %s is refused with 401', async (_name, forge) => {
    const account = await createAccount(serve, 'Forgery Target');
    const forged = await forge(account.token);
    await expect(verifiedClaims(forged)).rejects.toThrow();
    for (const path of ['/admin/providers', '/account/providers']) {
      const answer = await call(serve, forged, 'GET', path);
      expect(answer.status, path).toBe(401);
      expect(answer.json['code']).toBe('UNAUTHORIZED');
    }
  });

  it('an opaque provider token of a data dir from before JWTs keeps working', async () => {
    expect((await call(serve, ADMIN, 'POST', '/providers/register', registration())).status).toBe(201);
    await serve.close();
    // What an older serve wrote: the provider's token derived from token-key, only its hash in the provider file.
    const key = (await readFile(join(dataDir, 'token-key'), 'utf8')).trim();
    const seed = 'seed-from-an-older-serve';
    const legacy = providerToken(key, 'demo-kitchen', seed);
    const file = join(dataDir, 'providers', 'demo-kitchen.json');
    const stored = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...stored, providerTokenHash: hashToken(legacy), providerTokenSeed: seed }));
    serve = await startCore(dataDir);
    expect(legacy).toMatch(/^pvt_/);
    expect((await call(serve, legacy, 'GET', '/providers/me/dashboard')).status).toBe(200);
    expect((await call(serve, `${legacy}x`, 'GET', '/providers/me/dashboard')).status).toBe(401);
  });

  it('the operator token from the environment keeps working; an account token reaches no operator route', async () => {
    expect((await call(serve, ADMIN, 'GET', '/admin/providers')).status).toBe(200);
    const account = await createAccount(serve, 'Not An Operator');
    const refused = await call(serve, account.token, 'POST', '/admin/accounts', { name: 'more' });
    expect(refused.status).toBe(401);
    expect(refused.json['message']).toMatch(/not a account token|not an? account token/);
  });
});
