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
  private pending: PendingWrite[] = [];
  private flushing = false;
  private broken: Error | undefined;
  private closed = false;
  /** Resolves when the current flush loop ends (for close). */
  private idle: Promise<void> = Promise.resolve();

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
    if (!this.flushing) this.idle = this.flushLoop();
    return done;
  }

  private async flushLoop(): Promise<void> {
    this.flushing = true;
    try {
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        try {
          await this.handle.appendFile(batch.map((w) => w.text).join(''));
          await this.handle.datasync();
          for (const w of batch) w.resolve();
        } catch (e) {
          // A failed write may leave a partial line; refuse further appends rather than corrupt the log.
          this.broken = new Error(`cannot write ${this.path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
          for (const w of [...batch, ...this.pending]) w.reject(this.broken);
          this.pending = [];
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.idle;
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
