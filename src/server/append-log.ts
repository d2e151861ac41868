import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { dirname } from 'node:path';

interface PendingWrite {
  text: string;
  resolve(): void;
  reject(error: Error): void;
}

/** The file operations of a log, injectable so tests can simulate a full disk. */
export interface LogIo {
  write(handle: FileHandle, data: Buffer, position: number): Promise<void>;
  sync(handle: FileHandle): Promise<void>;
  truncate(handle: FileHandle, size: number): Promise<void>;
}

export const NODE_LOG_IO: LogIo = {
  async write(handle, data, position) {
    let done = 0;
    while (done < data.length)
      done += (await handle.write(data, done, data.length - done, position + done)).bytesWritten;
  },
  sync: (handle) => handle.datasync(),
  truncate: (handle, size) => handle.truncate(size),
};

/**
 * An append-only JSON-lines file. `append` resolves only after its line is on disk (fdatasync).
 * Lines arriving while a flush is in progress are written and synced together in the next flush
 * (group commit), so concurrent appends cost one fsync per batch rather than one each. Every batch is
 * written at a known offset: after a failed write (disk full) the file is cut back to the end of the
 * last good batch, so a torn line never glues onto the next record, and later appends work again.
 */
export class AppendLog {
  /** Flushes that may be in flight at once: while one fdatasync runs, the next batch is written and synced. */
  static readonly PIPELINE_DEPTH = 2;
  /**
   * Lines a batch needs to go out while another one syncs. An fdatasync costs the CPU of several requests:
   * when syncs are quick, the lines arriving during one wait for it and go out together (fewer, larger
   * batches); when syncs are slow, enough lines pile up that a second batch overlaps the first.
   */
  static readonly OVERLAP_MIN_LINES = 32;
  private pending: PendingWrite[] = [];
  private inFlight = 0;
  /** Offset where the next batch goes. */
  private end: number;
  /** Set by a failed batch: the offset the file must be cut back to before anything more is written. */
  private failedAt: number | undefined;
  private failure: Error | undefined;
  private closed = false;
  private writeChain: Promise<void> = Promise.resolve();
  private ackChain: Promise<void> = Promise.resolve();
  private drained: (() => void)[] = [];

  /** Bytes in the file at open (after the cut): records before this offset were written by earlier processes. */
  readonly openedSize: number;

  private constructor(
    private readonly handle: FileHandle,
    readonly path: string,
    size: number,
    private readonly io: LogIo,
  ) {
    this.end = size;
    this.openedSize = size;
  }

  /**
   * Open (creating if needed) and read the existing records. The file is cut back to the end of its last
   * complete record; damaged lines before that are skipped (they end with a newline, so they glue nothing).
   */
  static async open(path: string, io: LogIo = NODE_LOG_IO): Promise<{ log: AppendLog; records: unknown[] }> {
    const handle = await open(path, constants.O_RDWR | constants.O_CREAT, 0o600);
    try {
      const { records, goodEnd, size } = parseLog(await handle.readFile());
      if (goodEnd < size) {
        await handle.truncate(goodEnd);
        await handle.datasync();
      }
      await syncDirectory(dirname(path));
      return { log: new AppendLog(handle, path, goodEnd, io), records };
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  append(record: unknown): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`log ${this.path} is closed`));
    const text = `${JSON.stringify(record)}\n`;
    const done = new Promise<void>((resolve, reject) => this.pending.push({ text, resolve, reject }));
    this.startFlush();
    return done;
  }

  /**
   * Group commit, pipelined: everything pending goes out as one batch (one write, one fdatasync). Up to
   * PIPELINE_DEPTH batches are in flight. A batch is acknowledged only after its own sync returned and
   * every earlier batch was acknowledged; once one fails, the batches after it fail too, and the file
   * is cut back before the next write.
   */
  private startFlush(): void {
    if (this.pending.length === 0 || this.inFlight >= AppendLog.PIPELINE_DEPTH) return;
    if (this.inFlight > 0 && this.pending.length < AppendLog.OVERLAP_MIN_LINES) return;
    const batch = this.pending;
    this.pending = [];
    this.inFlight++;
    const data = Buffer.from(batch.map((w) => w.text).join(''), 'utf8');
    const written = this.writeChain.then(async () => {
      if (this.failedAt !== undefined) await this.repair();
      const at = this.end;
      this.end += data.length;
      try {
        await this.io.write(this.handle, data, at);
      } catch (e) {
        this.fail(at, e);
        throw this.failure;
      }
      return at;
    });
    this.writeChain = written.then(
      () => undefined,
      () => undefined,
    );
    const synced = written.then(async (at) => {
      try {
        await this.io.sync(this.handle);
      } catch (e) {
        this.fail(at, e);
        throw this.failure;
      }
      if (this.failedAt !== undefined && this.failedAt <= at) throw this.failure;
    });
    this.ackChain = this.ackChain
      .then(() => synced)
      .then(
        () => {
          for (const w of batch) w.resolve();
        },
        (e: unknown) => {
          const error = e instanceof Error ? e : new Error(String(e));
          for (const w of batch) w.reject(error);
        },
      )
      .finally(() => {
        this.inFlight--;
        if (this.inFlight === 0 && this.pending.length === 0) for (const resolve of this.drained.splice(0)) resolve();
        this.startFlush();
      });
  }

  private fail(at: number, e: unknown): void {
    this.failedAt = Math.min(this.failedAt ?? at, at);
    this.failure = new Error(`cannot write ${this.path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }

  /** Cut the file back to the last good batch; if that fails too, the next batch tries again. */
  private async repair(): Promise<void> {
    const to = this.failedAt;
    if (to === undefined) return;
    await this.io.truncate(this.handle, to);
    this.end = to;
    this.failedAt = undefined;
    this.failure = undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.inFlight > 0 || this.pending.length > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
    await this.handle.close();
  }
}

/** Complete, parseable lines, and the offset just after the last of them. */
export function parseLog(bytes: Buffer): { records: unknown[]; goodEnd: number; size: number } {
  const records: unknown[] = [];
  let goodEnd = 0;
  let start = 0;
  for (let nl = bytes.indexOf(0x0a, start); nl !== -1; start = nl + 1, nl = bytes.indexOf(0x0a, start)) {
    const line = bytes.subarray(start, nl).toString('utf8');
    if (line.trim() === '') continue;
    const record = parseLine(line);
    if (record === undefined) continue; // damaged beyond repair: skip it rather than refuse to start
    records.push(record);
    goodEnd = nl + 1;
  }
  return { records, goodEnd, size: bytes.length };
}

/**
 * One line's record. A line that does not parse may be a torn record with a whole one glued after it
 * (written by older versions after a failed write): the glued record is salvaged from the first `{"`
 * where the rest parses (inside JSON strings that sequence is escaped as `{\"`).
 */
export function parseLine(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    for (let at = line.indexOf('{"', 1); at !== -1; at = line.indexOf('{"', at + 1)) {
      try {
        return JSON.parse(line.slice(at)) as unknown;
      } catch {
        // try the next candidate
      }
    }
    return undefined;
  }
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
