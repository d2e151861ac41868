import { randomBytes } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunReport } from '../../model/report.js';
import { hmacHex } from '../../util/hmac.js';
import { readJson, writeJsonAtomic } from '../json-file.js';
import type { Registration } from './registration.js';

export type ReviewStatus = 'DRAFT' | 'PENDING_APPROVAL';

/** A registered provider as stored in the data dir (holds its webhook secret: never answered after creation). */
export interface StoredProvider {
  registration: Registration;
  webhookSecret: string;
  status: 'DRAFT';
  reviewStatus: ReviewStatus;
  /** Bumped when baseUrl, authMethod or the credential reference change: certification must be redone. */
  configVersion: number;
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
}

export type RegisterOutcome =
  | { busy: true }
  | { busy: false; provider: StoredProvider; created: boolean; recertify: boolean };

/** Fields that, when changed, require a new certification (contract, Onboarding order). */
const CERTIFIED_FIELDS = ['baseUrl', 'authMethod'] as const;

export function credentialFingerprint(webhookSecret: string, credential: string): string {
  return hmacHex(webhookSecret, `credential:${credential}`).slice(0, 32);
}

/** Registrations and certification records, persisted as JSON files under the data dir (write-then-rename). */
export class ProviderRegistry {
  private readonly providers = new Map<string, StoredProvider>();
  /** Slugs with a registration being written: a concurrent one is refused, so one creation makes one secret. */
  private readonly registering = new Set<string>();

  private constructor(private readonly dataDir: string) {}

  static async open(dataDir: string): Promise<ProviderRegistry> {
    const registry = new ProviderRegistry(dataDir);
    const dir = join(dataDir, 'providers');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.json'))) {
      const stored = (await readJson(join(dir, file))) as StoredProvider | undefined;
      if (stored?.registration?.slug) registry.providers.set(stored.registration.slug, stored);
    }
    return registry;
  }

  get(slug: string): StoredProvider | undefined {
    return this.providers.get(slug);
  }

  /**
   * Create, or update an existing registration (keeping its secret). Atomic per slug: while one
   * registration of a slug is being written, another answers `busy` (the route says 409).
   */
  async register(registration: Registration, now: Date): Promise<RegisterOutcome> {
    const slug = registration.slug;
    if (this.registering.has(slug)) return { busy: true };
    this.registering.add(slug);
    try {
      return await this.write(registration, now);
    } finally {
      this.registering.delete(slug);
    }
  }

  private async write(registration: Registration, now: Date): Promise<RegisterOutcome> {
    const existing = this.providers.get(registration.slug);
    const at = now.toISOString();
    let provider: StoredProvider;
    let recertify = false;
    if (existing) {
      recertify =
        CERTIFIED_FIELDS.some((f) => existing.registration[f] !== registration[f]) ||
        JSON.stringify(existing.registration.credential) !== JSON.stringify(registration.credential);
      provider = {
        ...existing,
        registration,
        configVersion: existing.configVersion + (recertify ? 1 : 0),
        // A changed integration goes back to draft: it must be certified and submitted again.
        reviewStatus: recertify ? 'DRAFT' : existing.reviewStatus,
        updatedAt: at,
      };
    } else {
      provider = {
        registration,
        webhookSecret: randomBytes(32).toString('hex'),
        status: 'DRAFT',
        reviewStatus: 'DRAFT',
        configVersion: 1,
        createdAt: at,
        updatedAt: at,
      };
    }
    await this.save(provider);
    return { busy: false, provider, created: !existing, recertify };
  }

  async submitForReview(slug: string, now: Date): Promise<StoredProvider | undefined> {
    const provider = this.providers.get(slug);
    if (!provider) return undefined;
    if (provider.reviewStatus === 'PENDING_APPROVAL') return provider;
    const updated: StoredProvider = {
      ...provider,
      reviewStatus: 'PENDING_APPROVAL',
      submittedAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    await this.save(updated);
    return updated;
  }

  private async save(provider: StoredProvider): Promise<void> {
    await writeJsonAtomic(join(this.dataDir, 'providers', `${provider.registration.slug}.json`), provider);
    this.providers.set(provider.registration.slug, provider);
  }

  async addCertification(record: CertificationRecord): Promise<void> {
    await writeJsonAtomic(join(this.certDir(record.slug), `${record.id}.json`), record);
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

  private certDir(slug: string): string {
    return join(this.dataDir, 'certifications', slug);
  }
}

/** Time-ordered id: sorts newest last lexicographically (fixed-width base36 time + random). */
export function newCertificationId(now: Date): string {
  return `${now.getTime().toString(36).padStart(10, '0')}-${randomBytes(4).toString('hex')}`;
}
