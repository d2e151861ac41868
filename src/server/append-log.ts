import { open, readFile, truncate, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

interface PendingWrite {
  text: string;
  resolve(): void;
  reject(error: Error): void;
}

/**
 * An append-only JSON-lines file. `append` resolves only after its line is on disk (fdatasync).
 * Lines arriving while a flush is in progress are written and synced together in the next flush
 * (group commit), so concurrent appends cost one fsync per batch rather than one each.
 */
export class AppendLog {
  /** Flushes that may be in flight at once: while one fdatasync runs, the next batch is written and synced. */
  static readonly PIPELINE_DEPTH = 2;
  private pending: PendingWrite[] = [];
  private inFlight = 0;
  private broken: Error | undefined;
  private closed = false;
  /** Serializes the writes (so lines never interleave) and the acknowledgements (so they stay in order). */
  private writeChain: Promise<void> = Promise.resolve();
  private ackChain: Promise<void> = Promise.resolve();
  private drained: (() => void)[] = [];

  private constructor(private readonly handle: FileHandle, readonly path: string) {}

  /** Open (creating if needed) and read the existing records. A torn last line (crash mid-write) is cut off. */
  static async open(path: string): Promise<{ log: AppendLog; records: unknown[] }> {
    const records = await readRecords(path);
    const handle = await open(path, 'a', 0o600);
    await syncDirectory(dirname(path));
    return { log: new AppendLog(handle, path), records };
  }

  append(record: unknown): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    if (this.closed) return Promise.reject(new Error(`log ${this.path} is closed`));
    const text = JSON.stringify(record) + '\n';
    const done = new Promise<void>((resolve, reject) => this.pending.push({ text, resolve, reject }));
    this.startFlush();
    return done;
  }

  /**
   * Group commit, pipelined: everything pending goes out as one batch (one write, one fdatasync). Up to
   * PIPELINE_DEPTH batches are in flight, so an arrival waits for one sync, not for the current one and
   * then its own. Writes are issued in order; a batch is acknowledged only after its own sync returned
   * and every earlier batch was acknowledged.
   */
  private startFlush(): void {
    if (this.pending.length === 0 || this.inFlight >= AppendLog.PIPELINE_DEPTH || this.broken) return;
    const batch = this.pending;
    this.pending = [];
    this.inFlight++;
    const written = this.writeChain.then(() => this.handle.appendFile(batch.map((w) => w.text).join('')));
    this.writeChain = written.catch(() => undefined);
    const synced = written.then(() => this.handle.datasync());
    this.ackChain = this.ackChain.then(() =>
      synced.then(
        () => {
          for (const w of batch) w.resolve();
        },
        (e: unknown) => {
          // A failed write may leave a partial line; refuse further appends rather than corrupt the log.
          this.broken ??= new Error(`cannot write ${this.path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
          for (const w of [...batch, ...this.pending]) w.reject(this.broken);
          this.pending = [];
        },
      ),
    ).finally(() => {
      this.inFlight--;
      if (this.inFlight === 0 && this.pending.length === 0) for (const resolve of this.drained.splice(0)) resolve();
      this.startFlush();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.inFlight > 0 || this.pending.length > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
    await this.handle.close();
  }
}

async function readRecords(path: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const lastNewline = text.lastIndexOf('\n');
  if (lastNewline + 1 < text.length) {
    // Never acknowledged (the fsync had not returned): drop it so later appends start on a fresh line.
    await truncate(path, Buffer.byteLength(text.slice(0, lastNewline + 1)));
    text = text.slice(0, lastNewline + 1);
  }
  const records: unknown[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      records.push(JSON.parse(line));
    } catch {
      // A damaged line cannot be applied; skip it rather than refuse to start.
    }
  }
  return records;
}

/** Make a newly created file's directory entry durable too. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Some platforms cannot fsync a directory; the file data itself is still synced.
  } finally {
    await handle?.close();
  }
}
