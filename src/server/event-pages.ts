import { type FileHandle, open } from 'node:fs/promises';
import { parseLine } from './append-log.js';

/** Where a listing continues: offsets into the provider's log and the legacy log, the last in-memory seq, and the count listed. */
export interface EventCursor {
  slugOffset: number;
  legacyOffset: number;
  memorySeq: number;
  listed: number;
}

export const START_CURSOR: EventCursor = { slugOffset: 0, legacyOffset: 0, memorySeq: 0, listed: 0 };

const isOffset = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The cursor is opaque to clients: base64url of a small JSON array. */
export function encodeCursor(c: EventCursor): string {
  return Buffer.from(JSON.stringify([c.slugOffset, c.legacyOffset, c.memorySeq, c.listed])).toString('base64url');
}

export function decodeCursor(text: string): EventCursor | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || v.length !== 4 || !v.every(isOffset)) return undefined;
    const [slugOffset, legacyOffset, memorySeq, listed] = v as [number, number, number, number];
    return { slugOffset, legacyOffset, memorySeq, listed };
  } catch {
    return undefined;
  }
}

export interface LogLine {
  record: unknown;
  /** Offset of the line's first byte. */
  at: number;
  /** Offset just after the line. */
  next: number;
}

const CHUNK = 64 * 1024;

/**
 * Up to `max` complete lines from `offset` whose record `matches`, reading at most `scanCap` bytes (a
 * page may come back short; the cursor continues from the last line returned). A missing file is empty.
 */
export async function readLines(
  path: string,
  offset: number,
  max: number,
  matches: (record: unknown) => boolean,
  scanCap: number,
): Promise<LogLine[]> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const found: LogLine[] = [];
  try {
    let position = offset;
    let carry = Buffer.alloc(0);
    let scanned = 0;
    while (found.length < max && scanned < scanCap) {
      const chunk = Buffer.alloc(CHUNK);
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, position + carry.length);
      if (bytesRead === 0) break;
      scanned += bytesRead;
      const data = Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      let start = 0;
      for (let nl = data.indexOf(0x0a); nl !== -1 && found.length < max; nl = data.indexOf(0x0a, start)) {
        const line = data.subarray(start, nl).toString('utf8');
        const at = position + start;
        start = nl + 1;
        const record = parseLine(line);
        if (record !== undefined && matches(record)) found.push({ record, at, next: position + start });
      }
      position += start;
      carry = data.subarray(start);
    }
  } finally {
    await handle.close();
  }
  return found;
}
