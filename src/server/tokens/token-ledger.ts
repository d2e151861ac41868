import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { UsageError } from '../../model/errors.js';
import { readJson, writeJsonAtomic } from '../json-file.js';
import { type IssuedToken, secretPartOf, type TokenRole } from './core-tokens.js';

/** The file under the data dir listing every token the core issued (claims, revocation; the token only sealed). */
export const TOKENS_FILE = 'tokens.json';

/** One issued token: what it is for, until when, whether it was revoked. */
export interface LedgerEntry {
  jti: string;
  role: TokenRole;
  sub: string;
  issuedAt: string;
  expiresAt: string;
  revokedAt?: string;
  /**
   * The token sealed (AES-256-GCM) under the server's token key, which lives in another file: the server masks
   * issued tokens in every answer, so it must know them after a restart; the data dir alone never holds one in clear.
   */
  sealed: string;
}

export type RevokeOutcome = { kind: 'not-found' } | { kind: 'ok'; entry: LedgerEntry; already: boolean };

const isEntry = (e: unknown): e is LedgerEntry =>
  typeof e === 'object' &&
  e !== null &&
  typeof (e as Record<string, unknown>)['jti'] === 'string' &&
  typeof (e as Record<string, unknown>)['sealed'] === 'string';

/** Issued core tokens and their revocations, persisted as one JSON file (write-then-rename) in the data dir. */
export class TokenLedger {
  private constructor(
    private readonly path: string,
    private readonly key: Buffer,
    private readonly entries: Map<string, LedgerEntry>,
  ) {}

  /** `tokenKey`: the server's token key (provider-token.ts); only its digest seals. */
  static async open(dataDir: string, tokenKey: string): Promise<TokenLedger> {
    const path = join(dataDir, TOKENS_FILE);
    const raw = await readJson(path);
    const list = raw === undefined ? [] : (raw as { tokens?: unknown }).tokens;
    if (!Array.isArray(list) || !list.every(isEntry))
      throw new UsageError(
        `${path} is not a provcert token ledger (move it away; every issued token then stops working)`,
      );
    const key = createHash('sha256').update(`token-ledger:${tokenKey}`).digest();
    return new TokenLedger(path, key, new Map(list.map((e) => [e.jti, e])));
  }

  async record(issued: IssuedToken): Promise<LedgerEntry> {
    const { claims } = issued;
    const entry: LedgerEntry = {
      jti: claims.jti,
      role: claims.role,
      sub: claims.sub,
      issuedAt: new Date(claims.iat * 1000).toISOString(),
      expiresAt: new Date(claims.exp * 1000).toISOString(),
      sealed: this.seal(issued.token),
    };
    this.entries.set(entry.jti, entry);
    await this.save();
    return entry;
  }

  isRevoked(jti: string): boolean {
    return this.entries.get(jti)?.revokedAt !== undefined;
  }

  get(jti: string): LedgerEntry | undefined {
    return this.entries.get(jti);
  }

  /** Revokes the token with this jti (again: unchanged, `already`). */
  async revoke(jti: string, now: Date): Promise<RevokeOutcome> {
    const entry = this.entries.get(jti);
    if (!entry) return { kind: 'not-found' };
    if (entry.revokedAt !== undefined) return { kind: 'ok', entry, already: true };
    const revoked = { ...entry, revokedAt: now.toISOString() };
    this.entries.set(jti, revoked);
    await this.save();
    return { kind: 'ok', entry: revoked, already: false };
  }

  /** The secret part (the signature) of every issued token, unsealed: answers and the log are masked with them. */
  secretParts(): string[] {
    return [...this.entries.values()].flatMap((e) => {
      const token = this.open(e.sealed);
      return token === undefined ? [] : [secretPartOf(token)];
    });
  }

  private seal(token: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  private open(sealed: string): string | undefined {
    try {
      const bytes = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return undefined; // Sealed under another token key: it cannot be masked, and it is not shown either.
    }
  }

  private save(): Promise<void> {
    return writeJsonAtomic(this.path, { tokens: [...this.entries.values()] });
  }
}
