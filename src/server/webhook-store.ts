import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReceivedWebhook, WebhookInbox } from '../model/webhooks.js';
import { AppendLog, type LogIo, NODE_LOG_IO } from './append-log.js';
import { type EventCursor, encodeCursor, type LogLine, readLines, START_CURSOR } from './event-pages.js';

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
  /** Present when the secret a rotation replaced verified it (inside the overlap window). */
  verifiedWith?: 'previous';
}

export type NewWebhook = Omit<ReceivedWebhook, 'seq'>;

interface Waiter {
  predicate(w: ReceivedWebhook): boolean;
  resolve(w: ReceivedWebhook | undefined): void;
}

export interface StoreOptions {
  /** File operations of the logs (tests inject failures). */
  io?: LogIo;
  /** Accepted events kept in memory per provider for the run (its oldest dropped first). */
  keptAccepted?: number;
  /** Rejected and duplicate requests kept in memory per provider, and unattributed ones (noise) in one shared lot. */
  keptUnlogged?: number;
}

export interface EventPage {
  items: ReceivedWebhook[];
  nextCursor?: string;
  total: number;
}

const LEGACY_FILE = '_legacy';
/** An applied event whose first delivery is on disk. */
const DURABLE = true;
/** Bytes one page may scan per log before it returns short (a listing never reads a whole large log at once). */
const PAGE_SCAN_CAP = 8 * 1024 * 1024;

const isLoggedEvent = (r: unknown): r is LoggedEvent => {
  if (typeof r !== 'object' || r === null) return false;
  const o = r as Record<string, unknown>;
  return (
    o['v'] === 1 &&
    typeof o['eventId'] === 'string' &&
    typeof o['providerSlug'] === 'string' &&
    typeof o['rawBody'] === 'string'
  );
};

const dedupKey = (providerSlug: string, eventId: string): string => `${providerSlug}\u0000${eventId}`;
const isLogged = (w: ReceivedWebhook): boolean => w.verified && w.answeredStatus === 200 && !w.duplicate;
/**
 * Retention is per provider the receiver attributed a request to, so no provider's flood can evict another's
 * events; unattributed requests (noise: anyone can send them) share one bounded lot of their own.
 */
const NOISE_BUCKET = '';
const bucketOf = (w: ReceivedWebhook): string => w.attributedTo ?? NOISE_BUCKET;
const listedUnder = (w: ReceivedWebhook, slug: string): boolean =>
  w.slug === slug || (w.slug === null && w.event?.['providerSlug'] === slug);

/**
 * Received webhooks: durable accepted events (one append-only log per provider under
 * `<dataDir>/webhooks/`), de-duplication by provider and eventId among accepted events, the bounded
 * in-memory arrival list the run reads, and paged listings read from disk.
 */
export class WebhookStore {
  private readonly logs = new Map<string, Promise<AppendLog>>();
  /** Size of each log when this process opened it: records before it are "restored". */
  private readonly openedSizes = new Map<string, number>();
  /**
   * provider + eventId → the commit of its first delivery while it is in flight (a redelivery is acknowledged
   * only once that is durable), then DURABLE: one shared value, not a settled promise kept per event.
   */
  private readonly applied = new Map<string, Promise<void> | typeof DURABLE>();
  /** Logs already open, by path slug (null = legacy): an append needs no lookup of the file name or promise hop. */
  private readonly openBySlug = new Map<string | null, AppendLog>();
  private readonly acceptedCount = new Map<string, number>();
  private session: ReceivedWebhook[] = [];
  /** Entries held per retention bucket (a provider, or the shared noise bucket), accepted and other. */
  private readonly held = new Map<string, { accepted: number; unlogged: number }>();
  private readonly waiters = new Set<Waiter>();
  /** Live listeners (event streams); undefined while none, so recording costs nothing extra. */
  private listeners: Set<(w: ReceivedWebhook) => void> | undefined;
  private nextSeq = 1;
  private readonly keptAccepted: number;
  private readonly keptUnlogged: number;

  private constructor(
    private readonly dir: string,
    private readonly io: LogIo,
    options: StoreOptions,
  ) {
    this.keptAccepted = options.keptAccepted ?? 5_000;
    this.keptUnlogged = options.keptUnlogged ?? 1_000;
  }

  /** Open the store, reloading the de-duplication keys and counts of every provider log in the data dir. */
  static async open(dataDir: string, options: StoreOptions = {}): Promise<WebhookStore> {
    const dir = join(dataDir, 'webhooks');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const store = new WebhookStore(dir, options.io ?? NODE_LOG_IO, options);
    const files = (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort();
    for (const file of files) {
      const fileKey = file.slice(0, -'.jsonl'.length);
      const opened = await AppendLog.open(join(dir, file), store.io);
      store.logs.set(fileKey, Promise.resolve(opened.log));
      store.openedSizes.set(fileKey, opened.log.openedSize);
      for (const record of opened.records) if (isLoggedEvent(record)) store.noteApplied(record);
    }
    return store;
  }

  private noteApplied(record: LoggedEvent): void {
    this.applied.set(dedupKey(record.providerSlug, record.eventId), DURABLE);
    this.acceptedCount.set(record.providerSlug, (this.acceptedCount.get(record.providerSlug) ?? 0) + 1);
  }

  private static fileKey(slug: string | null): string {
    return slug === null ? LEGACY_FILE : encodeURIComponent(slug);
  }

  private logFor(slug: string | null): Promise<AppendLog> {
    const key = WebhookStore.fileKey(slug);
    let log = this.logs.get(key);
    if (!log) {
      log = AppendLog.open(join(this.dir, `${key}.jsonl`), this.io).then((o) => o.log);
      this.logs.set(key, log);
      // A failed open must not poison later attempts.
      log.catch(() => this.logs.delete(key));
    }
    return log;
  }

  /**
   * Make a verified, correctly attributed event durable unless the same provider's eventId was applied
   * before. Resolves once it (or its first delivery) is on disk; rejects when it could not be written.
   */
  async commit(record: LoggedEvent): Promise<{ duplicate: boolean }> {
    const key = dedupKey(record.providerSlug, record.eventId);
    const earlier = this.applied.get(key);
    if (earlier === DURABLE) return { duplicate: true };
    if (earlier) {
      try {
        await earlier;
        return { duplicate: true };
      } catch {
        // The first delivery failed to be written: this one tries again below.
        if (this.applied.get(key) === earlier) this.applied.delete(key);
        return this.commit(record);
      }
    }
    const open = this.openBySlug.get(record.slug);
    const write = open
      ? open.append(record)
      : this.logFor(record.slug).then((log) => {
          this.openBySlug.set(record.slug, log);
          return log.append(record);
        });
    this.applied.set(key, write);
    try {
      await write;
    } catch (e) {
      // Not recorded: a redelivery must be able to try again.
      if (this.applied.get(key) === write) this.applied.delete(key);
      throw e;
    }
    if (this.applied.get(key) === write) this.applied.set(key, DURABLE);
    this.acceptedCount.set(record.providerSlug, (this.acceptedCount.get(record.providerSlug) ?? 0) + 1);
    return { duplicate: false };
  }

  /** Whether this provider's event `eventId` was accepted before (durably, or its first delivery is being written). */
  hasApplied(providerSlug: string, eventId: string): boolean {
    return this.applied.has(dedupKey(providerSlug, eventId));
  }

  /** Note one answered request (accepted or not), in arrival order, and wake matching waiters. */
  record(webhook: NewWebhook): ReceivedWebhook {
    const entry: ReceivedWebhook = { seq: this.nextSeq++, ...webhook };
    this.session.push(entry);
    this.hold(entry);
    for (const waiter of this.waiters) {
      if (waiter.predicate(entry)) waiter.resolve(entry);
    }
    if (this.listeners) this.notify(entry);
    return entry;
  }

  /** Each webhook recorded from now on goes to `listener` until the returned function is called. */
  subscribe(listener: (w: ReceivedWebhook) => void): () => void {
    const listeners = (this.listeners ??= new Set());
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.listeners === listeners) this.listeners = undefined;
    };
  }

  private notify(entry: ReceivedWebhook): void {
    for (const listener of this.listeners ?? []) {
      try {
        listener(entry);
      } catch {
        // A listener's bug (an event stream) must never fail the request being answered.
      }
    }
  }

  /**
   * Bounded memory per bucket: the newest accepted and the newest other entries of each provider, and the newest
   * unattributed ones. A bucket is trimmed in chunks (at 110 % of its quota), not per request.
   */
  private hold(entry: ReceivedWebhook): void {
    const key = bucketOf(entry);
    let counts = this.held.get(key);
    if (counts === undefined) {
      counts = { accepted: 0, unlogged: 0 };
      this.held.set(key, counts);
    }
    if (isLogged(entry)) counts.accepted++;
    else counts.unlogged++;
    if (counts.accepted > this.keptAccepted * 1.1 || counts.unlogged > this.keptUnlogged * 1.1) this.trim(key, counts);
  }

  /** Drop the oldest entries of one bucket down to its quotas; the other buckets are untouched. */
  private trim(key: string, counts: { accepted: number; unlogged: number }): void {
    let dropAccepted = Math.max(0, counts.accepted - this.keptAccepted);
    let dropUnlogged = Math.max(0, counts.unlogged - this.keptUnlogged);
    counts.accepted -= dropAccepted;
    counts.unlogged -= dropUnlogged;
    // The dropped entries are the oldest: only the prefix up to the last of them is filtered, the rest copied.
    const kept: ReceivedWebhook[] = [];
    let at = 0;
    for (; at < this.session.length && (dropAccepted > 0 || dropUnlogged > 0); at++) {
      const w = this.session[at] as ReceivedWebhook;
      if (bucketOf(w) !== key) kept.push(w);
      else if (isLogged(w) ? dropAccepted-- <= 0 : dropUnlogged-- <= 0) kept.push(w);
    }
    this.session = at === 0 ? this.session : kept.concat(this.session.slice(at));
  }

  /** This process's received requests (the newest ones, see StoreOptions), oldest first. */
  all(): readonly ReceivedWebhook[] {
    return this.session;
  }

  /**
   * One page of what a provider's listing holds, in arrival order: every accepted event on disk (its own
   * log and the legacy log), merged with this process's rejected and duplicate requests still in memory.
   */
  async page(slug: string, cursor: EventCursor = START_CURSOR, limit = 100): Promise<EventPage> {
    const accepted = (r: unknown): boolean => isLoggedEvent(r) && r.providerSlug === slug;
    const slugKey = WebhookStore.fileKey(slug);
    const [own, legacy] = await Promise.all([
      readLines(join(this.dir, `${slugKey}.jsonl`), cursor.slugOffset, limit, accepted, PAGE_SCAN_CAP),
      readLines(join(this.dir, `${LEGACY_FILE}.jsonl`), cursor.legacyOffset, limit, accepted, PAGE_SCAN_CAP),
    ]);
    const memory = this.session
      .filter((w) => w.seq > cursor.memorySeq && !isLogged(w) && listedUnder(w, slug))
      .slice(0, limit);

    type Source = 'own' | 'legacy' | 'memory';
    const candidates: { source: Source; at: string; line?: LogLine; entry?: ReceivedWebhook }[] = [
      ...own.map((line) => ({ source: 'own' as const, at: (line.record as LoggedEvent).receivedAt, line })),
      ...legacy.map((line) => ({ source: 'legacy' as const, at: (line.record as LoggedEvent).receivedAt, line })),
      ...memory.map((entry) => ({ source: 'memory' as const, at: entry.receivedAt, entry })),
    ];
    const order: Record<Source, number> = { own: 0, legacy: 1, memory: 2 };
    candidates.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : order[a.source] - order[b.source]));
    const taken = candidates.slice(0, limit);

    const next: EventCursor = { ...cursor };
    const items = taken.map((c, i): ReceivedWebhook => {
      const seq = cursor.listed + i + 1;
      if (c.entry) {
        next.memorySeq = Math.max(next.memorySeq, c.entry.seq);
        return { ...c.entry, seq };
      }
      const line = c.line as LogLine;
      const fileKey = c.source === 'own' ? slugKey : LEGACY_FILE;
      if (c.source === 'own') next.slugOffset = line.next;
      else next.legacyOffset = line.next;
      return restoredView(line.record as LoggedEvent, seq, line.at < (this.openedSizes.get(fileKey) ?? 0));
    });
    next.listed = cursor.listed + items.length;
    const more =
      candidates.length > taken.length || own.length === limit || legacy.length === limit || memory.length === limit;
    const unlogged = this.session.filter((w) => !isLogged(w) && listedUnder(w, slug)).length;
    return {
      items,
      total: (this.acceptedCount.get(slug) ?? 0) + unlogged,
      ...(more && items.length > 0 ? { nextCursor: encodeCursor(next) } : {}),
    };
  }

  waitFor(
    predicate: (w: ReceivedWebhook) => boolean,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<ReceivedWebhook | undefined> {
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
    return {
      urlFor,
      all: () => this.all(),
      waitFor: (p, t, s) => this.waitFor(p, t, s),
      subscribe: (listener) => this.subscribe(listener),
    };
  }

  async close(): Promise<void> {
    for (const waiter of [...this.waiters]) waiter.resolve(undefined);
    const logs = await Promise.allSettled([...this.logs.values()]);
    await Promise.all(logs.map((l) => (l.status === 'fulfilled' ? l.value.close() : undefined)));
  }
}

/** An accepted event read back from disk, as the listing shows it. */
function restoredView(record: LoggedEvent, seq: number, restored: boolean): ReceivedWebhook {
  let event: Record<string, unknown> | undefined;
  try {
    event = JSON.parse(record.rawBody) as Record<string, unknown>;
  } catch {
    event = undefined;
  }
  return {
    seq,
    receivedAt: record.receivedAt,
    slug: record.slug,
    headers: {},
    rawBody: record.rawBody,
    verified: true,
    signatureHeader: record.signatureHeader,
    ...(record.verifiedWith ? { verifiedWith: record.verifiedWith } : {}),
    answeredStatus: 200,
    duplicate: false,
    ...(restored ? { restored: true } : {}),
    ...(event ? { event } : {}),
  };
}
