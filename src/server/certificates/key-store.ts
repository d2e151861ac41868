import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Jwks, type PublicJwk, privateKeyFromPem, publicJwkOf } from '../../certificates/keys.js';
import { UsageError } from '../../model/errors.js';
import { readJson, writeJsonAtomic } from '../json-file.js';

/** The file under the data dir that keeps the core's keys (the generated private key, and every retired public key). */
export const KEYS_FILE = 'signing-keys.json';

/** One key the core has signed with. The private key is kept only for the current key, and only when generated. */
interface StoredKey {
  kid: string;
  x: string;
  createdAt: string;
  retiredAt?: string;
  /** PKCS #8 PEM of a generated key; absent for a key read from a file (it stays there) and for retired keys. */
  privateKeyPem?: string;
  source: 'generated' | 'file';
}

interface KeysFile {
  keys: StoredKey[];
}

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  createdAt: string;
  source: 'generated' | 'file';
}

const isStored = (k: unknown): k is StoredKey => {
  if (typeof k !== 'object' || k === null) return false;
  const r = k as Record<string, unknown>;
  return typeof r['kid'] === 'string' && typeof r['x'] === 'string' && typeof r['createdAt'] === 'string';
};

/**
 * The core's Ed25519 signing keys: the current one signs certificates (and tokens); retired ones stay in the JWKS
 * with their validity, so what they signed stays verifiable after a rotation. Generated in the data dir on first
 * start, or read from the PEM file `serve` is told (signingKey); a new file key retires the one before.
 */
export class KeyStore {
  private constructor(
    private readonly path: string,
    private stored: StoredKey[],
    private current: SigningKey,
    private readonly fromFile: boolean,
  ) {}

  static async open(dataDir: string, options: { keyFile?: string; now: () => Date }): Promise<KeyStore> {
    const path = join(dataDir, KEYS_FILE);
    const raw = await readJson(path);
    const list = raw === undefined ? [] : (raw as Partial<KeysFile>).keys;
    if (!Array.isArray(list) || !list.every(isStored))
      throw new UsageError(`${path} is not a provcert key file (move it away to start with a new key)`);
    const stored = [...list];
    const at = options.now().toISOString();
    const active = stored.find((k) => k.retiredAt === undefined);
    let current: SigningKey;
    if (options.keyFile !== undefined) {
      const privateKey = await readKeyFile(options.keyFile);
      const { kid, x } = publicJwkOf(privateKey);
      let entry = stored.find((k) => k.kid === kid);
      if (!entry) {
        if (active) retire(active, at);
        entry = { kid, x, createdAt: at, source: 'file' };
        stored.push(entry);
      }
      delete entry.retiredAt;
      for (const k of stored) if (k !== entry && k.retiredAt === undefined) retire(k, at);
      current = { kid, privateKey, createdAt: entry.createdAt, source: 'file' };
    } else if (active?.privateKeyPem !== undefined) {
      current = {
        kid: active.kid,
        privateKey: privateKeyFromPem(active.privateKeyPem),
        createdAt: active.createdAt,
        source: 'generated',
      };
    } else {
      if (active) retire(active, at); // A file key that is no longer named: it stays verifiable, retired.
      const made = generate(at);
      stored.push(made.entry);
      current = made.key;
    }
    const store = new KeyStore(path, stored, current, options.keyFile !== undefined);
    if (raw === undefined || JSON.stringify(list) !== JSON.stringify(stored)) await store.save();
    return store;
  }

  /** The key that signs now. */
  signingKey(): SigningKey {
    return this.current;
  }

  /** The public keys, current first, each with its validity (retired: `validUntil`). */
  jwks(): Jwks {
    const keys: PublicJwk[] = [...this.stored]
      .sort(
        (a, b) =>
          Number(a.retiredAt !== undefined) - Number(b.retiredAt !== undefined) || (a.createdAt < b.createdAt ? 1 : -1),
      )
      .map((k) => ({
        kty: 'OKP',
        crv: 'Ed25519',
        x: k.x,
        kid: k.kid,
        alg: 'EdDSA',
        use: 'sig',
        validFrom: k.createdAt,
        ...(k.retiredAt !== undefined ? { validUntil: k.retiredAt } : {}),
      }));
    return { keys };
  }

  /**
   * A new key signs from now on; the current one is retired (its public key stays published). A key read from a
   * file is rotated by naming another file and restarting: refused here with that advice.
   */
  async rotate(now: Date): Promise<SigningKey> {
    if (this.fromFile)
      throw new UsageError('the signing key is read from the signingKey file: name a new key file and restart serve');
    const at = now.toISOString();
    for (const k of this.stored) if (k.retiredAt === undefined) retire(k, at);
    const made = generate(at);
    this.stored.push(made.entry);
    this.current = made.key;
    await this.save();
    return made.key;
  }

  private save(): Promise<void> {
    return writeJsonAtomic(this.path, { keys: this.stored } satisfies KeysFile);
  }
}

function retire(k: StoredKey, at: string): void {
  k.retiredAt = at;
  delete k.privateKeyPem; // A retired key never signs again: its private half is not kept.
}

function generate(at: string): { entry: StoredKey; key: SigningKey } {
  const { privateKey } = generateKeyPairSync('ed25519');
  const { kid, x } = publicJwkOf(privateKey);
  const privateKeyPem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  return {
    entry: { kid, x, createdAt: at, privateKeyPem, source: 'generated' },
    key: { kid, privateKey, createdAt: at, source: 'generated' },
  };
}

async function readKeyFile(path: string): Promise<KeyObject> {
  let pem: string;
  try {
    pem = await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(`signingKey ${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    return privateKeyFromPem(pem);
  } catch (e) {
    throw new UsageError(`signingKey ${path}: ${(e as Error).message}`);
  }
}
