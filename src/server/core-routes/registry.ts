import { randomBytes } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Certificate } from '../../certificates/certificate.js';
import type { RunReport } from '../../model/report.js';
import { hmacHex } from '../../util/hmac.js';
import { readJson, writeJsonAtomic } from '../json-file.js';
import {
  decide,
  type LifecycleRow,
  MIN_REASON_LENGTH,
  type ProviderStatus,
  type ReviewState,
  statusOf,
  type Trigger,
} from '../review/lifecycle.js';
import { type Actor, type DecisionEntry, OperationsLog, type RotationEntry } from '../review/operations-log.js';
import { hashToken, providerToken, sameHash, tokenKey } from '../review/provider-token.js';
import type { Registration } from './registration.js';

export type ReviewStatus = ReviewState;

/** The partner-visible reason of the last non-approval decision (cleared on resubmission). */
export interface VisibleReason {
  decision: Trigger;
  reasonCode: string;
  reason: string;
  requiredChanges?: string[];
  decidedAt: string;
}

/** A registered provider as stored in the data dir (holds its webhook secret: never answered after creation). */
export interface StoredProvider {
  registration: Registration;
  webhookSecret: string;
  /**
   * The secret the last rotation replaced, accepted until `validUntil` (the overlap window) so the provider's
   * backend can switch over; kept after that only to tell a late sender's 401 "signed with a rotated secret".
   */
  previousWebhookSecret?: { secret: string; rotatedAt: string; validUntil: string };
  /**
   * Key of the credential fingerprints: the first webhook secret. A rotation must not make every earlier
   * certification look as if the credential had changed. Absent = the current webhook secret (never rotated).
   */
  fingerprintKey?: string;
  /** The account that registered it (absent: the operator's). An account sees and acts on its own providers only. */
  accountId?: string;
  /**
   * SHA-256 of the opaque provider token of a data dir from before JWT tokens (still accepted); providers
   * registered since get a JWT, recorded in the token ledger only.
   */
  providerTokenHash?: string;
  /** What the token was derived from with the server's token key (not the token: the key is apart). */
  providerTokenSeed?: string;
  status: ProviderStatus;
  reviewStatus: ReviewStatus;
  /**
   * Bumped when the configuration certification depends on changes (base URL, auth method, credential
   * reference, capabilities, fulfillment) and on reopen: a certification counts only for the version it ran on.
   */
  configVersion: number;
  /** Certifications up to this configVersion were invalidated by reopen. */
  invalidThroughVersion?: number;
  visibleReason?: VisibleReason;
  createdAt: string;
  updatedAt: string;
  submittedAt?: string;
}

export interface CertificationRecord {
  id: string;
  slug: string;
  createdAt: string;
  verdict: RunReport['verdict'];
  configVersion: number;
  /** Keyed hash of the credential used, to notice a changed credential value (never the credential). */
  credentialFingerprint: string;
  report: RunReport;
  /** The signed in-toto statement of this certification (absent in records written before certificates). */
  certificate?: Certificate;
}

export type RegisterOutcome =
  | { kind: 'busy' }
  /** The slug belongs to another account (or to the operator): an account registers its own slugs only. */
  | { kind: 'taken' }
  | { kind: 'conflict'; current: ReviewState }
  | {
      kind: 'ok';
      provider: StoredProvider;
      created: boolean;
      recertify: boolean;
    };

/** What a transition needs besides the trigger: its guard, the decision's details, who acts. */
export interface TransitionInput {
  actor: Actor;
  /** Runs inside the provider's lock when the row has a guard; a message refuses the transition. */
  guard?: (provider: StoredProvider) => Promise<string | undefined>;
  reasonCode?: string;
  reason?: string;
  requiredChanges?: string[];
  internalNote?: string;
}

export type TransitionOutcome =
  | { kind: 'not-found' }
  | { kind: 'illegal'; current: ReviewState }
  | { kind: 'guard-failed'; current: ReviewState; message: string }
  | { kind: 'ok'; provider: StoredProvider; row: LifecycleRow; entry: DecisionEntry };

/** The configuration a certification depends on (issue: a scope change forces recertification). */
function configurationKey(r: Registration): string {
  return JSON.stringify([
    r.baseUrl,
    r.authMethod,
    r.credential,
    [...new Set(r.capabilities)].sort(),
    r.fulfillment ?? null,
  ]);
}

export function credentialFingerprint(p: StoredProvider, credential: string): string {
  return hmacHex(p.fingerprintKey ?? p.webhookSecret, `credential:${credential}`).slice(0, 32);
}

export type RotateOutcome = { kind: 'not-found' } | { kind: 'ok'; provider: StoredProvider; entry: RotationEntry };

/** Why a certification no longer counts for submit-review, or undefined while it does. */
export function certificationInvalidity(p: StoredProvider, r: CertificationRecord): string | undefined {
  if (p.invalidThroughVersion !== undefined && r.configVersion <= p.invalidThroughVersion)
    return 'invalidated by reopen';
  if (r.configVersion !== p.configVersion) return 'the configuration changed after it';
  return undefined;
}

/**
 * Registrations, review state and certification records, persisted as JSON files under the data dir
 * (write-then-rename), plus the durable operations log. State changes of one provider are serialized by
 * a per-slug lock, so of concurrent decisions exactly one wins and the rest see the state it left.
 */
export class ProviderRegistry {
  private readonly providers = new Map<string, StoredProvider>();
  /** Slugs with a registration being written: a concurrent one is refused, so one creation makes one secret. */
  private readonly registering = new Set<string>();
  private readonly locks = new Map<string, Promise<unknown>>();

  private constructor(
    private readonly dataDir: string,
    readonly operations: OperationsLog,
    private readonly tokenKey: string,
  ) {}

  static async open(dataDir: string): Promise<ProviderRegistry> {
    const key = await tokenKey(dataDir);
    const registry = new ProviderRegistry(dataDir, await OperationsLog.open(dataDir), key);
    const dir = join(dataDir, 'providers');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.json'))) {
      const stored = (await readJson(join(dir, file))) as StoredProvider | undefined;
      if (stored?.registration?.slug) registry.providers.set(stored.registration.slug, stored);
    }
    return registry;
  }

  /** The server's token key (the token ledger seals issued tokens under it). */
  get key(): string {
    return this.tokenKey;
  }

  get(slug: string): StoredProvider | undefined {
    return this.providers.get(slug);
  }

  list(): StoredProvider[] {
    return [...this.providers.values()].sort((a, b) => (a.registration.slug < b.registration.slug ? -1 : 1));
  }

  /** The provider a bearer token belongs to (compared by hash), or undefined. */
  byToken(token: string): StoredProvider | undefined {
    const hash = hashToken(token);
    for (const p of this.providers.values()) if (p.providerTokenHash && sameHash(p.providerTokenHash, hash)) return p;
    return undefined;
  }

  /** Every provider token, recomputed: answers are masked with them (a provider may echo its own). */
  providerTokens(): string[] {
    return this.list().flatMap((p) =>
      p.providerTokenSeed ? [providerToken(this.tokenKey, p.registration.slug, p.providerTokenSeed)] : [],
    );
  }

  /** Runs `fn` after every earlier state change of this slug has finished. */
  private locked<T>(slug: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(slug) ?? Promise.resolve();
    const next = previous.then(fn, fn);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.locks.set(slug, settled);
    void settled.then(() => {
      if (this.locks.get(slug) === settled) this.locks.delete(slug);
    });
    return next;
  }

  /**
   * Create, or update an existing registration (keeping its secret). A changed configuration is the
   * lifecycle's UPDATE_INTEGRATION: refused (conflict) where the table does not allow it.
   */
  async register(registration: Registration, now: Date, actor: Actor, accountId?: string): Promise<RegisterOutcome> {
    const slug = registration.slug;
    if (this.registering.has(slug)) return { kind: 'busy' };
    this.registering.add(slug);
    try {
      return await this.locked(slug, () => this.write(registration, now, actor, accountId));
    } finally {
      this.registering.delete(slug);
    }
  }

  private async write(
    registration: Registration,
    now: Date,
    actor: Actor,
    accountId: string | undefined,
  ): Promise<RegisterOutcome> {
    const existing = this.providers.get(registration.slug);
    const at = now.toISOString();
    if (existing && actor === 'account' && existing.accountId !== accountId) return { kind: 'taken' };
    if (!existing) {
      const provider: StoredProvider = {
        registration,
        webhookSecret: randomBytes(32).toString('hex'),
        ...(accountId !== undefined ? { accountId } : {}),
        status: 'DRAFT',
        reviewStatus: 'DRAFT',
        configVersion: 1,
        createdAt: at,
        updatedAt: at,
      };
      await this.save(provider);
      await this.operations.append(
        { kind: 'registration', slug: registration.slug, actor, created: true, configVersion: 1, recertify: true },
        now,
      );
      return { kind: 'ok', provider, created: true, recertify: true };
    }
    const current = normalized(existing);
    const changed = configurationKey(current.registration) !== configurationKey(registration);
    // While CHANGES_REQUESTED any re-registration (a new name included) is the provider updating its integration.
    if (!changed && current.reviewStatus !== 'CHANGES_REQUESTED') {
      const provider: StoredProvider = { ...current, registration, updatedAt: at };
      await this.save(provider);
      await this.operations.append(
        {
          kind: 'registration',
          slug: registration.slug,
          actor,
          created: false,
          configVersion: provider.configVersion,
          recertify: false,
        },
        now,
      );
      return { kind: 'ok', provider, created: false, recertify: false };
    }
    const outcome = await this.apply(current, 'UPDATE_INTEGRATION', { actor }, now, (p) => ({
      ...p,
      registration,
      configVersion: changed ? p.configVersion + 1 : p.configVersion,
    }));
    if (outcome.kind !== 'ok') return { kind: 'conflict', current: current.reviewStatus };
    await this.operations.append(
      {
        kind: 'registration',
        slug: registration.slug,
        actor,
        created: false,
        configVersion: outcome.provider.configVersion,
        recertify: changed,
      },
      now,
    );
    return { kind: 'ok', provider: outcome.provider, created: false, recertify: changed };
  }

  /** The one way a review state changes: the lifecycle table decides, under the provider's lock. */
  transition(slug: string, trigger: Trigger, input: TransitionInput, now: Date): Promise<TransitionOutcome> {
    return this.locked(slug, async () => {
      const existing = this.providers.get(slug);
      if (!existing) return { kind: 'not-found' };
      return this.apply(normalized(existing), trigger, input, now, (p) => p);
    });
  }

  private async apply(
    provider: StoredProvider,
    trigger: Trigger,
    input: TransitionInput,
    now: Date,
    configure: (p: StoredProvider) => StoredProvider,
  ): Promise<TransitionOutcome> {
    const decided = decide(provider.reviewStatus, trigger);
    if (!decided.ok) return { kind: 'illegal', current: provider.reviewStatus };
    const { row } = decided;
    const refused = await guardProblem(row, provider, input);
    if (refused !== undefined) return { kind: 'guard-failed', current: provider.reviewStatus, message: refused };
    const at = now.toISOString();
    let next: StoredProvider = { ...provider, reviewStatus: row.to, status: row.status, updatedAt: at };
    for (const effect of row.effects) {
      if (effect === 'apply-configuration') next = configure(next);
      if (effect === 'clear-visible-reason') delete next.visibleReason;
      if (effect === 'set-visible-reason' && input.reasonCode !== undefined && input.reason !== undefined) {
        next.visibleReason = {
          decision: trigger,
          reasonCode: input.reasonCode,
          reason: input.reason,
          ...(input.requiredChanges ? { requiredChanges: input.requiredChanges } : {}),
          decidedAt: at,
        };
      }
      if (effect === 'invalidate-certifications') {
        next.invalidThroughVersion = next.configVersion;
        next.configVersion += 1;
      }
    }
    if (trigger === 'SUBMIT_REVIEW') next.submittedAt = at;
    // The decision is on disk before the state: a crash between them leaves history ahead of state,
    // never a state without its history.
    const entry = (await this.operations.append(
      {
        kind: 'decision',
        slug: provider.registration.slug,
        actor: input.actor,
        trigger,
        from: provider.reviewStatus,
        to: row.to,
        statusFrom: provider.status,
        statusTo: row.status,
        ...(input.reasonCode !== undefined ? { reasonCode: input.reasonCode } : {}),
        ...(input.reason !== undefined ? { reason: input.reason } : {}),
        ...(input.requiredChanges ? { requiredChanges: input.requiredChanges } : {}),
        ...(input.internalNote !== undefined ? { internalNote: input.internalNote } : {}),
      },
      now,
    )) as DecisionEntry;
    await this.save(next);
    return { kind: 'ok', provider: next, row, entry };
  }

  private async save(provider: StoredProvider): Promise<void> {
    await writeJsonAtomic(join(this.dataDir, 'providers', `${provider.registration.slug}.json`), provider);
    this.providers.set(provider.registration.slug, provider);
  }

  /**
   * Replace the provider's webhook secret with a new random one. The replaced secret stays valid for
   * `overlapMs` (0: not at all, the contract's "rotating invalidates the previous signature"); a secret
   * replaced earlier is dropped at once. The log entry (no secret in it) is on disk before the new state, and
   * the answer is given only once both are: an acknowledged rotation survives a crash.
   */
  rotateWebhookSecret(slug: string, overlapMs: number, now: Date, actor: Actor): Promise<RotateOutcome> {
    return this.locked(slug, async () => {
      const existing = this.providers.get(slug);
      if (!existing) return { kind: 'not-found' };
      const at = now.toISOString();
      const validUntil = new Date(now.getTime() + overlapMs).toISOString();
      const entry = (await this.operations.append(
        {
          kind: 'secret-rotation',
          slug,
          actor,
          overlapSeconds: Math.round(overlapMs / 1000),
          previousValidUntil: validUntil,
        },
        now,
      )) as RotationEntry;
      const next: StoredProvider = {
        ...normalized(existing),
        webhookSecret: randomBytes(32).toString('hex'),
        previousWebhookSecret: { secret: existing.webhookSecret, rotatedAt: at, validUntil },
        fingerprintKey: existing.fingerprintKey ?? existing.webhookSecret,
        updatedAt: at,
      };
      await this.save(next);
      return { kind: 'ok', provider: next, entry };
    });
  }

  async addCertification(record: CertificationRecord, now: Date, actor: Actor): Promise<void> {
    await writeJsonAtomic(join(this.certDir(record.slug), `${record.id}.json`), record);
    await this.operations.append(
      {
        kind: 'certification',
        slug: record.slug,
        actor,
        certificationId: record.id,
        verdict: record.verdict,
        configVersion: record.configVersion,
      },
      now,
    );
  }

  /** Newest first. */
  async certifications(slug: string): Promise<CertificationRecord[]> {
    let files: string[];
    try {
      files = (await readdir(this.certDir(slug))).filter((f) => f.endsWith('.json'));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    const records = await Promise.all(
      files.map((f) => readJson(join(this.certDir(slug), f)) as Promise<CertificationRecord>),
    );
    return records.filter((r) => r !== undefined).sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  }

  async certification(slug: string, id: string): Promise<CertificationRecord | undefined> {
    if (!/^[a-z0-9-]+$/.test(id)) return undefined;
    return (await readJson(join(this.certDir(slug), `${id}.json`))) as CertificationRecord | undefined;
  }

  /** Whether the provider's latest certification passed and still counts (metadata.isCertified). */
  async isCertified(p: StoredProvider): Promise<boolean> {
    const [latest] = await this.certifications(p.registration.slug);
    return latest !== undefined && latest.verdict === 'PASS' && certificationInvalidity(p, latest) === undefined;
  }

  close(): Promise<void> {
    return this.operations.close();
  }

  private certDir(slug: string): string {
    return join(this.dataDir, 'certifications', slug);
  }
}

/** Why the row's guard refuses the transition, or undefined. The table's guards hold whatever the caller checked. */
async function guardProblem(
  row: LifecycleRow,
  provider: StoredProvider,
  input: TransitionInput,
): Promise<string | undefined> {
  if (row.guard === 'passing-current-certification')
    return input.guard ? input.guard(provider) : 'no passing certification of the current configuration was checked';
  if (row.guard === 'reason-given' && (!input.reasonCode || (input.reason?.trim().length ?? 0) < MIN_REASON_LENGTH))
    return `${row.trigger} needs a reasonCode and a reason of at least ${MIN_REASON_LENGTH} characters`;
  return undefined;
}

/** Data files written before the review desk have no provider status of their own. */
function normalized(p: StoredProvider): StoredProvider {
  return p.status === undefined ? { ...p, status: statusOf(p.reviewStatus) } : p;
}

/** Time-ordered id: sorts newest last lexicographically (fixed-width base36 time + random). */
export function newCertificationId(now: Date): string {
  return `${now.getTime().toString(36).padStart(10, '0')}-${randomBytes(4).toString('hex')}`;
}
