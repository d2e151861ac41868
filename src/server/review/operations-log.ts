import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunVerdict } from '../../model/verdict.js';
import { AppendLog } from '../append-log.js';
import type { ProviderStatus, ReviewState, Trigger } from './lifecycle.js';

/** Who did it: the operator (admin token), an account (its own providers), the provider (its own token) or the server. */
export type Actor = 'admin' | 'account' | 'provider' | 'server';

interface EntryBase {
  seq: number;
  at: string;
  slug: string;
  actor: Actor;
}

export interface RegistrationEntry extends EntryBase {
  kind: 'registration';
  created: boolean;
  configVersion: number;
  /** The configuration changed: certification is required again. */
  recertify: boolean;
}

export interface CertificationEntry extends EntryBase {
  kind: 'certification';
  certificationId: string;
  verdict: RunVerdict;
  configVersion: number;
}

/** One lifecycle transition: the audit history of the review desk. */
export interface DecisionEntry extends EntryBase {
  kind: 'decision';
  trigger: Trigger;
  from: ReviewState;
  to: ReviewState;
  statusFrom: ProviderStatus;
  statusTo: ProviderStatus;
  reasonCode?: string;
  reason?: string;
  requiredChanges?: string[];
  /** Operations only: shown in the admin provider detail, never in logs, exports or provider views. */
  internalNote?: string;
}

/** A webhook secret rotation: when, by whom, and until when the replaced secret is accepted (never a secret). */
export interface RotationEntry extends EntryBase {
  kind: 'secret-rotation';
  overlapSeconds: number;
  /** The end of the overlap window (equal to `at` when the window is 0). */
  previousValidUntil: string;
}

export type OperationEntry = RegistrationEntry | CertificationEntry | DecisionEntry | RotationEntry;
export type NewEntry = OperationEntry extends infer E
  ? E extends OperationEntry
    ? Omit<E, 'seq' | 'at'>
    : never
  : never;

const FILE = 'operations.jsonl';

function isEntry(value: unknown): value is OperationEntry {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['seq'] === 'number' && typeof v['slug'] === 'string' && typeof v['kind'] === 'string';
}

/**
 * The append-only operations log (registrations, certifications, review decisions, secret rotations) in
 * `<data-dir>/review/operations.jsonl`: an entry is acknowledged only once it is on disk, and a line torn
 * by a crash is cut at start, like the webhook logs. Kept in memory too: the review desk reads it often.
 */
export class OperationsLog {
  private constructor(
    private readonly log: AppendLog,
    private readonly entries: OperationEntry[],
  ) {}

  static async open(dataDir: string): Promise<OperationsLog> {
    const dir = join(dataDir, 'review');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const { log, records } = await AppendLog.open(join(dir, FILE));
    return new OperationsLog(log, records.filter(isEntry));
  }

  /** Durable before it resolves; `seq` numbers the entries in the order they were appended. */
  async append(entry: NewEntry, at: Date): Promise<OperationEntry> {
    const full = { ...entry, seq: (this.entries.at(-1)?.seq ?? 0) + 1, at: at.toISOString() } as OperationEntry;
    this.entries.push(full);
    try {
      await this.log.append(full);
    } catch (e) {
      this.entries.splice(this.entries.indexOf(full), 1);
      throw e;
    }
    return full;
  }

  all(): readonly OperationEntry[] {
    return this.entries;
  }

  history(slug: string): DecisionEntry[] {
    return this.entries.filter((e): e is DecisionEntry => e.kind === 'decision' && e.slug === slug);
  }

  close(): Promise<void> {
    return this.log.close();
  }
}
