import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AppendLog } from './append-log.js';
import type { ReceivedWebhook, WebhookInbox } from './types.js';

/** One accepted event as written to the per-provider JSON-lines log. */
export interface LoggedEvent {
  v: 1;
  receivedAt: string;
  /** Path slug; null on the legacy route. */
  slug: string | null;
  providerSlug: string;
  eventId: string;
  signatureHeader: string;
  rawBody: string;
}

/** How far the in-memory history may run over its limit before it is trimmed back. */
const TRIM_CHUNK = 1_000;

export type NewWebhook = Omit<ReceivedWebhook, 'seq'>;

interface Waiter {
  predicate(w: ReceivedWebhook): boolean;
  resolve(w: ReceivedWebhook | undefined): void;
}

const LEGACY_FILE = '_legacy';
const DEFAULT_RETAINED = 10_000;

const isLoggedEvent = (r: unknown): r is LoggedEvent => {
  if (typeof r !== 'object' || r === null) return false;
  const o = r as Record<string, unknown>;
  return o['v'] === 1 && typeof o['eventId'] === 'string' && typeof o['providerSlug'] === 'string' && typeof o['rawBody'] === 'string';
};

const dedupKey = (providerSlug: string, eventId: string): string => `${providerSlug}\u0000${eventId}`;

/**
 * Received webhooks: durable accepted events (one append-only log per provider under
 * `<dataDir>/webhooks/`), de-duplication by eventId, and the in-memory arrival list the run reads.
 */
export class WebhookStore {
  private readonly logs = new Map<string, Promise<AppendLog>>();
  /** eventId → the commit of its first delivery: a redelivery is acknowledged only once that is durable. */
  private readonly applied = new Map<string, Promise<void>>();
  private readonly session: ReceivedWebhook[] = [];
  private readonly restoredList: ReceivedWebhook[] = [];
  private readonly waiters = new Set<Waiter>();
  private nextSeq = 1;

  private constructor(private readonly dir: string, private readonly retained: number) {}

  /** Open the store, reloading every provider log found in the data dir. */
  static async open(dataDir: string, retained = DEFAULT_RETAINED): Promise<WebhookStore> {
    const dir = join(dataDir, 'webhooks');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const store = new WebhookStore(dir, retained);
    const files = (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort();
    for (const file of files) {
      const fileKey = file.slice(0, -'.jsonl'.length);
      const opened = AppendLog.open(join(dir, file));
      store.logs.set(fileKey, opened.then((o) => o.log));
      for (const record of (await opened).records) if (isLoggedEvent(record)) store.restore(record);
    }
    return store;
  }

  private restore(record: LoggedEvent): void {
    this.applied.set(dedupKey(record.providerSlug, record.eventId), Promise.resolve());
    let event: Record<string, unknown> | undefined;
    try {
      event = JSON.parse(record.rawBody) as Record<string, unknown>;
    } catch {
      event = undefined;
    }
    const entry: ReceivedWebhook = {
      seq: this.nextSeq++,
      receivedAt: record.receivedAt,
      slug: record.slug,
      headers: {},
      rawBody: record.rawBody,
      verified: true,
      signatureHeader: record.signatureHeader,
      answeredStatus: 200,
      duplicate: false,
      restored: true,
      ...(event ? { event } : {}),
    };
    this.restoredList.push(entry);
    if (this.restoredList.length > this.retained) this.restoredList.shift();
  }

  private logFor(slug: string | null): Promise<AppendLog> {
    const key = slug === null ? LEGACY_FILE : encodeURIComponent(slug);
    let log = this.logs.get(key);
    if (!log) {
      log = AppendLog.open(join(this.dir, `${key}.jsonl`)).then((o) => o.log);
      this.logs.set(key, log);
      // A failed open must not poison later attempts.
      log.catch(() => this.logs.delete(key));
    }
    return log;
  }

  /**
   * Make a verified, valid event durable unless its eventId was applied before. Resolves once it (or
   * its first delivery) is on disk; rejects when it could not be written.
   */
  async commit(record: LoggedEvent): Promise<{ duplicate: boolean }> {
    const key = dedupKey(record.providerSlug, record.eventId);
    const earlier = this.applied.get(key);
    if (earlier) {
      await earlier;
      return { duplicate: true };
    }
    const write = this.logFor(record.slug).then((log) => log.append(record));
    this.applied.set(key, write);
    try {
      await write;
    } catch (e) {
      // Not recorded: a redelivery must be able to try again.
      if (this.applied.get(key) === write) this.applied.delete(key);
      throw e;
    }
    return { duplicate: false };
  }

  /** Note one answered request (accepted or not), in arrival order, and wake matching waiters. */
  record(webhook: NewWebhook): ReceivedWebhook {
    const entry: ReceivedWebhook = { seq: this.nextSeq++, ...webhook };
    this.session.push(entry);
    // Trim in chunks: one shift per request would move the whole array each time once it is full.
    if (this.session.length > this.retained + TRIM_CHUNK) this.session.splice(0, this.session.length - this.retained);
    for (const waiter of this.waiters) {
      if (waiter.predicate(entry)) waiter.resolve(entry);
    }
    return entry;
  }

  /** This process's received requests, oldest first. */
  all(): readonly ReceivedWebhook[] {
    return this.session;
  }

  /** Reloaded accepted events followed by this process's requests, optionally for one slug. */
  history(slug?: string): ReceivedWebhook[] {
    const list = [...this.restoredList, ...this.session];
    return slug === undefined ? list : list.filter((w) => w.slug === slug || (w.slug === null && w.event?.['providerSlug'] === slug));
  }

  waitFor(predicate: (w: ReceivedWebhook) => boolean, timeoutMs: number, signal?: AbortSignal): Promise<ReceivedWebhook | undefined> {
    const past = this.session.find(predicate);
    if (past) return Promise.resolve(past);
    if (signal?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        predicate,
        resolve: (w) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          this.waiters.delete(waiter);
          resolve(w);
        },
      };
      const onAbort = (): void => waiter.resolve(undefined);
      const timer = setTimeout(() => waiter.resolve(undefined), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(waiter);
    });
  }

  inbox(urlFor: (slug: string) => string): WebhookInbox {
    return { urlFor, all: () => this.all(), waitFor: (p, t, s) => this.waitFor(p, t, s) };
  }

  async close(): Promise<void> {
    for (const waiter of [...this.waiters]) waiter.resolve(undefined);
    const logs = await Promise.allSettled([...this.logs.values()]);
    await Promise.all(logs.map((l) => (l.status === 'fulfilled' ? l.value.close() : undefined)));
  }
}
