import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Document, LineCounter } from 'yaml';
import { UsageError } from '../model/errors.js';
import { isRecord } from './json.js';

/**
 * The one reader of YAML and JSON files written by people or by provcert: config and fleet files, serve's
 * config, the spec and requirements catalog, report files, `validate`'s payloads. Every refusal is one line
 * naming the file and the reason (a DataFileError, exit 2): not found, a directory, too large, binary, invalid
 * YAML/JSON with line and column, duplicate keys, an alias bomb, nesting too deep, a `__proto__` key. A reader that
 * names its own refusals (the report files) tells them apart by `kind`; `readDataFileDigest` also gives the sha256
 * of the bytes it parsed.
 */

/**
 * The YAML parser, loaded when a YAML text is first parsed: the JSON readers (`validate`'s payloads, report files)
 * then start without it (a fifth of `provcert validate`'s start-up). Synchronous, as parsing is: the package is
 * CommonJS, so `require` gives the same module `import` would.
 */
let yamlModule: typeof import('yaml') | undefined;
const yaml = (): typeof import('yaml') => {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yamlModule;
};

/** Larger files are refused before they are read: nothing provcert reads is anywhere near this. */
export const MAX_DATA_FILE_BYTES = 64 * 1024 * 1024;
/** Deeper values are refused: provcert's files are a few levels deep (a report with provider values, ~70). */
export const MAX_DATA_DEPTH = 128;
/** YAML aliases may expand to at most this many nodes (the yaml library's measure): a "billion laughs" stops here. */
const MAX_ALIAS_COUNT = 1000;
/**
 * What a YAML document may expand to, aliases counted by the size of what they stand for: no larger than the largest
 * file provcert reads, so aliases can never make parsed data bigger than a file could be (a 2 MB string aliased 299
 * times is 600 MB once parsed, with few nodes).
 */
export const MAX_EXPANDED_BYTES = MAX_DATA_FILE_BYTES;

export type DataFileErrorKind =
  | 'not-found'
  | 'unreadable'
  | 'directory'
  | 'not-a-file'
  | 'too-large'
  | 'binary'
  | 'syntax'
  | 'aliases'
  | 'too-deep'
  | 'forbidden-key';

export class DataFileError extends UsageError {
  constructor(
    readonly kind: DataFileErrorKind,
    message: string,
    /** For `unreadable`: the system's error code (EACCES…). */
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface DataFileOptions {
  /** How the file is named in messages: "config file provcert.yaml", "fleet file fleet.yaml", "report r.json". */
  label: string;
  /** `json` parses JSON only (reports, payloads); `yaml` also reads JSON, which is YAML. */
  format: 'yaml' | 'json';
  maxBytes?: number;
  maxDepth?: number;
  /** Refuse `__proto__` keys (files people write: no use for one, and a merge could turn it into a prototype). */
  forbidProtoKeys?: boolean;
  /** Refuse anything but a regular file (a pipe, a device): for files provcert wrote itself, never a stream. */
  regularFileOnly?: boolean;
}

export interface DataText {
  /** undefined for an empty (or whitespace-only) file. */
  value: unknown;
  /** YAML only: the document and its line counter, to name the line of a later problem. */
  doc?: Document;
  lineCounter?: LineCounter;
}

const megabytes = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;
const firstLine = (text: string): string => text.split('\n')[0] ?? '';

const unreadable = (label: string, e: unknown): DataFileError => {
  const code = (e as NodeJS.ErrnoException).code ?? 'error';
  return new DataFileError('unreadable', `cannot read ${label} (${code})`, code);
};

/** Read at most maxBytes + 1 bytes: a file that grows while it is read is still bounded. */
async function readBounded(path: string, label: string, maxBytes: number, regularFileOnly: boolean): Promise<Buffer> {
  let size: number;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new DataFileError('directory', `${label} is a directory, not a file`);
    // Checked before opening: opening a pipe waits for a writer.
    if (regularFileOnly && !info.isFile()) throw new DataFileError('not-a-file', `${label} is not a regular file`);
    size = info.size;
  } catch (e) {
    if (e instanceof DataFileError) throw e;
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new DataFileError('not-found', `${label} not found`);
    throw unreadable(label, e);
  }
  const tooLarge = (): DataFileError =>
    new DataFileError('too-large', `${label} is larger than ${megabytes(maxBytes)}; provcert does not read it`);
  if (size > maxBytes) throw tooLarge();
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    // In chunks, not by the size stat gave: a pipe says 0 and a file may grow while it is read.
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) throw tooLarge();
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, length);
  } catch (e) {
    if (e instanceof DataFileError) throw e;
    throw unreadable(label, e);
  } finally {
    await handle?.close();
  }
}

/** Depth and forbidden keys, walked without recursion (a hostile file must not overflow the stack here either). */
function checkShape(value: unknown, label: string, maxDepth: number, forbidProtoKeys: boolean): void {
  const stack: { node: unknown; depth: number; path: string }[] = [{ node: value, depth: 0, path: '' }];
  while (stack.length > 0) {
    const { node, depth, path } = stack.pop() as { node: unknown; depth: number; path: string };
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= maxDepth) throw tooDeep(label, maxDepth);
    for (const key of Object.keys(node)) {
      if (forbidProtoKeys && key === '__proto__')
        throw new DataFileError('forbidden-key', `${label}: the key "__proto__" is not allowed (at ${path || '/'})`);
      stack.push({ node: (node as Record<string, unknown>)[key], depth: depth + 1, path: `${path}/${key}` });
    }
  }
}

/** Whether JSON arrays and objects nest deeper than `limit`, counted outside strings: checked before parsing. */
export function jsonDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

const tooDeep = (label: string, maxDepth: number): DataFileError =>
  new DataFileError('too-deep', `${label} is nested deeper than ${maxDepth} levels; provcert does not read it`);

/**
 * Whether YAML flow collections (`[`, `{`) nest deeper than `limit`, strings and comments skipped. Checked before
 * parsing: the yaml library recurses per level and takes seconds to overflow on 100,000 levels.
 */
function flowDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (ch === "'" && (i === 0 || /[\s[{,:]/.test(text[i - 1] ?? ''))) {
      for (i++; i < text.length && text[i] !== "'"; i++);
    } else if (ch === '#' && (i === 0 || /\s/.test(text[i - 1] ?? ''))) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (ch === '[' || ch === '{') {
      if (++depth > limit) return true;
    } else if (ch === ']' || ch === '}') depth--;
  }
  return false;
}

/** Every scalar counts at least this much: a number or a null still takes memory once parsed. */
const SCALAR_FLOOR = 8;

/**
 * The size a YAML node expands to (string lengths, SCALAR_FLOOR per other scalar, one per item or pair), each alias
 * counted as the size of the node it stands for. Each node is measured once (memoized), so this is linear in the
 * document however many aliases point at one node; it stops as soon as the budget is spent.
 */
function expandedSize(doc: Document, budget: number): number {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yaml();
  const sizes = new Map<unknown, number>();
  const measuring = new Set<unknown>();
  const measure = (node: unknown): number => {
    if (node === null || node === undefined) return SCALAR_FLOOR;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    // An alias to a node still being measured is a cycle: parsed as a reference, it adds nothing.
    if (measuring.has(node)) return 0;
    measuring.add(node);
    let size = SCALAR_FLOOR;
    if (isAlias(node)) size = measure(node.resolve(doc));
    else if (isScalar(node)) size = typeof node.value === 'string' ? Math.max(node.value.length, 1) : SCALAR_FLOOR;
    else if (isPair(node)) size = measure(node.key) + measure(node.value) + 1;
    else if (isMap(node) || isSeq(node)) {
      size = 1;
      for (const item of node.items as unknown[]) {
        size += measure(item) + 1;
        if (size > budget) break;
      }
    }
    measuring.delete(node);
    sizes.set(node, size);
    return size;
  };
  return measure(doc.contents);
}

/** Parse YAML or JSON text already in memory (standard input, a file read by readDataFile) with the same limits. */
export function parseDataText(text: string, options: DataFileOptions): DataText {
  const { label } = options;
  const maxDepth = options.maxDepth ?? MAX_DATA_DEPTH;
  const forbid = options.forbidProtoKeys ?? options.format === 'yaml';
  if (text.includes('\u0000'))
    throw new DataFileError(
      'binary',
      `${label} is a binary file, not ${options.format === 'json' ? 'JSON' : 'YAML or JSON'} text`,
    );
  if (text.trim() === '') return { value: undefined };
  try {
    if (options.format === 'json') {
      if (jsonDeeperThan(text, maxDepth)) throw tooDeep(label, maxDepth);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        if (e instanceof RangeError) throw e;
        throw new DataFileError('syntax', `${label} is not valid JSON: ${firstLine((e as Error).message)}`);
      }
      checkShape(value, label, maxDepth, forbid);
      return { value };
    }
    if (flowDeeperThan(text, maxDepth)) throw tooDeep(label, maxDepth);
    const { LineCounter, parseDocument } = yaml();
    const lineCounter = new LineCounter();
    const doc = parseDocument(text, { prettyErrors: false, lineCounter, uniqueKeys: true });
    const error = doc.errors[0];
    if (error && /call stack/i.test(error.message))
      throw new DataFileError('too-deep', `${label} is nested too deeply; provcert does not read it`);
    if (error) {
      const pos = lineCounter.linePos(error.pos[0]);
      throw new DataFileError(
        'syntax',
        `${label}:${pos.line}:${pos.col}: invalid YAML: ${firstLine(error.message) || 'syntax error'}`,
      );
    }
    if (expandedSize(doc, MAX_EXPANDED_BYTES) > MAX_EXPANDED_BYTES)
      throw new DataFileError(
        'aliases',
        `${label}: refused: its aliases expand it to more than ${megabytes(MAX_EXPANDED_BYTES)} once parsed (an alias bomb)`,
      );
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown;
    } catch (e) {
      if (e instanceof ReferenceError && /alias/i.test(e.message))
        throw new DataFileError(
          'aliases',
          `${label}: refused: its aliases expand to more than ${MAX_ALIAS_COUNT} nodes (an alias bomb)`,
        );
      throw e;
    }
    checkShape(value, label, maxDepth, forbid);
    return { value, doc, lineCounter };
  } catch (e) {
    // The parsers recurse: absurd nesting overflows the stack before any depth check can run.
    if (e instanceof RangeError)
      throw new DataFileError('too-deep', `${label} is nested too deeply; provcert does not read it`);
    throw e;
  }
}

const readBytes = (path: string, options: DataFileOptions): Promise<Buffer> =>
  readBounded(path, options.label, options.maxBytes ?? MAX_DATA_FILE_BYTES, options.regularFileOnly === true);

/** Read and parse a YAML or JSON file, bounded in size and shape; every refusal is one DataFileError line. */
export async function readDataFile(path: string, options: DataFileOptions): Promise<DataText> {
  return parseDataText((await readBytes(path, options)).toString('utf8'), options);
}

/** The same, with the sha256 (hex) of the very bytes parsed: to name exactly which file was read. */
export async function readDataFileDigest(
  path: string,
  options: DataFileOptions,
): Promise<DataText & { sha256: string }> {
  const bytes = await readBytes(path, options);
  return {
    ...parseDataText(bytes.toString('utf8'), options),
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/** The 1-based line of a JSON pointer's value (or of `key`, a key of that value) in a YAML document, when known. */
export function lineOf(read: DataText, pointer: string, key?: string): number | undefined {
  const { doc, lineCounter: counter } = read;
  if (!doc || !counter) return undefined;
  const path = pointer
    .split('/')
    .slice(1)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, '/').replace(/~0/g, '~')));
  const node = path.length === 0 ? doc.contents : doc.getIn(path, true);
  let range: readonly number[] | null | undefined;
  if (key !== undefined && yaml().isMap(node)) {
    const pair = node.items.find((item) => isRecord(item.key) && item.key['value'] === key);
    range = (pair?.key as { range?: readonly number[] } | undefined)?.range;
  }
  range ??= (node as { range?: readonly number[] } | null | undefined)?.range;
  const offset = range?.[0];
  return offset === undefined ? undefined : counter.linePos(offset).line;
}
