import { skeletonOf } from './skeleton.js';
import { TextMemo } from './text-memo.js';

/**
 * Pieces of a secret, found however they are echoed (issue 32, item 1). An echo can cut a secret into pieces each
 * shorter than any fixed "identifying" length and let them overlap, so that laid side by side they rebuild it: no
 * length threshold on single pieces is sound. What is judged instead is what a text (or a whole report) shows of
 * the secret altogether.
 *
 * The rule:
 * - A *run* is a stretch of the text that is a stretch of the secret at least `minRun` characters long, compared
 *   in the skeleton (skeleton.ts: every escape undone, iterated encodings too, separators and case dropped), as
 *   the secret itself or as a piece of its hex or base64 (any alignment). `minRun` is the length at which chance
 *   stops explaining a match: 20 bits of the alphabet of the secret's characters that are not words (4 characters
 *   of a mixed key, 5 of hex, 7 of digits), 8 characters of hex or base64. A run of the secret's words alone
 *   shows nothing of it and is never masked ("Provider" holds "prov" of `provcert-probe-…`). A run whose text reads like words does not count ("credential" in
 *   "test-credential-7f3a").
 * - A text *reveals* the secret when its runs together cover half of the secret's characters that are not words
 *   (runs of 4+ same-case letters as written: guessable; MAX_SHOWN at most): then every run is masked. Below that, what is shown leaves at least half the secret
 *   unknown, which no reader can guess (half a 34-character key is ~100 bits), however the pieces overlap.
 * - One string is judged by itself; a whole value (a report, an answer) is judged over all its strings together,
 *   so pieces spread over many fields count as one echo.
 * Residue, by construction: stretches shorter than `minRun` are not counted (they occur by chance in any text).
 * Linear: one skeleton per string and one hash lookup per position and run length (two lengths at most).
 */

/** Fewer characters than this never identify a secret. */
const MIN_RUN = 4;
/** A run must carry this much of the secret's entropy for chance to be an unlikely explanation. */
const CHANCE_BITS = 20;
/** Hex and base64 pieces: 4 and 6 bytes of the secret. */
const MIN_ENCODED_RUN = 8;
/** Past this many characters shown, any secret is revealed (keeps very long tokens to the same standard). */
export const MAX_SHOWN = 64;

/** Lowercase (or uppercase) words and separators only: text like this does not identify a random key. */
export const looksLikeWords = (piece: string): boolean => {
  // Punctuation set aside: the skeleton joins words across it (`message":"credential` holds "ecre"). An escape keeps
  // its `%`, `\\` or `&` and digits, so an escaped piece never reads like words.
  const kept = piece.replace(/[^A-Za-z0-9%\\&]/g, '');
  return /^[a-z]*$/.test(kept) || /^[A-Z]*$/.test(kept);
};

/** How many characters of a skeleton carry CHANCE_BITS, by the alphabet the secret's skeleton is drawn from. */
function minRunOf(skeleton: string): number {
  const alphabet = /^[0-9]+$/.test(skeleton)
    ? 10
    : /^[0-9a-f]+$/.test(skeleton)
      ? 16
      : /^[a-z]+$/.test(skeleton)
        ? 26
        : 36;
  return Math.max(MIN_RUN, Math.ceil(CHANCE_BITS / Math.log2(alphabet)));
}

/**
 * The skeleton positions of a secret's words: runs of 4+ lowercase (or uppercase) letters as written ("test",
 * "credential" in "test-credential-7f3a9c"). Guessable and common in any text, they are not counted: a secret's
 * strength is in the rest, and half of the rest is what may not show.
 */
function wordPositions(secret: string): Set<number> {
  const chars = skeletonOf(secret, true);
  const isWord = new Uint8Array(secret.length);
  for (const match of secret.matchAll(/[a-z]{4,}|[A-Z]{4,}/g))
    for (let i = match.index; i < match.index + match[0].length; i++) isWord[i] = 1;
  const out = new Set<number>();
  for (let i = 0; i < chars.text.length; i++) if (isWord[chars.from?.[i] ?? 0]) out.add(i);
  return out;
}

/** One skeleton form of a secret: its text, and for each of its characters the secret's skeleton position. */
interface Form {
  text: string;
  position: (index: number) => number;
  minRun: number;
}

interface Secret {
  /** Length of the secret's skeleton: what coverage is counted over. */
  length: number;
  /** How many covered positions reveal it. */
  threshold: number;
  forms: Form[];
}

/** A stretch of a text (original positions) that is a counted run of these secrets. */
interface Run {
  start: number;
  end: number;
  secrets: number[];
  /** Whether it covers a character of a secret that is not a word: a run of its words alone shows nothing. */
  shows: boolean;
}

/** What one text shows of each secret: its runs and the secret positions they cover. */
export interface PieceScan {
  runs: readonly Run[];
  /** Per secret, the skeleton positions covered (absent: none). */
  covered: Map<number, Set<number>>;
}

/** For each byte of the secret's UTF-8, its skeleton position (-1: a character the skeleton drops). */
function byteToSkeleton(secret: string): Int32Array {
  const chars = skeletonOf(secret, true);
  const charToSkeleton = new Int32Array(secret.length).fill(-1);
  for (let i = 0; i < chars.text.length; i++) charToSkeleton[chars.from?.[i] ?? 0] = i;
  const bytes: number[] = [];
  for (let i = 0; i < secret.length; i++) {
    const code = secret.codePointAt(i) ?? 0;
    const width = Buffer.byteLength(String.fromCodePoint(code), 'utf8');
    for (let b = 0; b < width; b++) bytes.push(charToSkeleton[i] ?? -1);
    if (code > 0xffff) i++;
  }
  return Int32Array.from(bytes);
}

/**
 * The run length of a secret's skeleton form: by the alphabet of what is not words, where its entropy is
 * (`provcert-probe-` and 24 hex digits is hex: 4 hex digits of a uuid match it by chance).
 */
function skeletonRunOf(skeleton: string, words: ReadonlySet<number>): number {
  const random = [...skeleton].filter((_, i) => !words.has(i)).join('');
  return minRunOf(random);
}

function formsOf(secret: string, words: ReadonlySet<number>): Form[] {
  const skeleton = skeletonOf(secret).text;
  const bytes = Buffer.from(secret, 'utf8');
  const skeletonAt = byteToSkeleton(secret);
  const forms: Form[] = [{ text: skeleton, position: (i) => i, minRun: skeletonRunOf(skeleton, words) }];
  forms.push({ text: bytes.toString('hex'), position: (i) => skeletonAt[i >> 1] ?? -1, minRun: MIN_ENCODED_RUN });
  // Base64 at the three alignments; each encoded character maps to the byte its first bit comes from.
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const start = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    const fragment = skeletonOf(encoded.slice(start, end), true);
    const from = fragment.from ?? new Int32Array(0);
    forms.push({
      text: fragment.text,
      position: (i) => skeletonAt[Math.floor((6 * (start + (from[i] ?? 0))) / 8) - offset] ?? -1,
      minRun: MIN_ENCODED_RUN,
    });
  }
  return forms.filter((form) => form.text.length >= form.minRun);
}

/** A stretch of a form of length minRun, and per secret the positions it covers. */
interface Stretch {
  text: string;
  covers: [number, number[]][];
}

/** Polynomial hash of text[from, to), 32-bit: skeleton characters are ASCII letters and digits. */
const BASE = 257;
/** Hash buckets per run length: the forms of a few secrets hold a few hundred stretches. */
const BUCKETS = 4096;
function hashOf(text: string, from: number, to: number): number {
  let hash = 0;
  for (let i = from; i < to; i++) hash = (Math.imul(hash, BASE) + text.charCodeAt(i)) | 0;
  return hash;
}
const power = (exponent: number): number => {
  let out = 1;
  for (let i = 0; i < exponent; i++) out = Math.imul(out, BASE);
  return out;
};
/** The hash of the window one character on: `leaving` out at the front, `entering` in at the back. */
const roll = (hash: number, leaving: number, entering: number, outgoing: number): number =>
  (Math.imul(hash - Math.imul(leaving, outgoing), BASE) + entering) | 0;

export class SecretPieces {
  private readonly secrets: Secret[] = [];
  /**
   * For each run length in use, every stretch of that length of every form, by rolling hash, with the secret
   * positions it covers. A longer run is the union of the stretches of this length inside it, so looking up each
   * one is enough: one hash step and lookup per position, no allocation (a regex of every suffix compiles slowly,
   * per masker).
   */
  private readonly stretches = new Map<number, (Stretch[] | undefined)[]>();
  /** A text's runs and the secret positions they cover, worked out once per distinct text (a pure function of it). */
  private readonly found = new TextMemo((text) => this.findRuns(text));

  constructor(secrets: readonly string[]) {
    for (const secret of secrets) {
      const skeleton = skeletonOf(secret).text;
      // A secret too short to be cut into two runs is masked whole only (secret-forms.ts).
      if (skeleton.length < 2 * minRunOf(skeleton)) continue;
      const words = wordPositions(secret);
      const random = skeleton.length - words.size;
      // All words ("correcthorsebatterystaple"): nothing random to count; masked whole only.
      if (random < 2) continue;
      const index = this.secrets.length;
      const forms = formsOf(secret, words);
      const threshold = Math.min(MAX_SHOWN, Math.ceil(random / 2));
      this.secrets.push({ length: skeleton.length, threshold, forms });
      for (const form of forms) this.addStretches(index, form, words);
    }
  }

  private addStretches(index: number, form: Form, words: ReadonlySet<number>): void {
    const table = this.stretches.get(form.minRun) ?? new Array<Stretch[] | undefined>(BUCKETS);
    this.stretches.set(form.minRun, table);
    for (let i = 0; i + form.minRun <= form.text.length; i++) {
      const text = form.text.slice(i, i + form.minRun);
      const positions: number[] = [];
      for (let j = i; j < i + form.minRun; j++) {
        const position = form.position(j);
        if (position >= 0 && !words.has(position)) positions.push(position);
      }
      const hash = hashOf(text, 0, text.length) & (BUCKETS - 1);
      const bucket = table[hash] ?? [];
      table[hash] = bucket;
      const same = bucket.find((s) => s.text === text);
      if (same) same.covers.push([index, positions]);
      else bucket.push({ text, covers: [[index, positions]] });
    }
  }

  get active(): boolean {
    return this.secrets.length > 0;
  }

  /** The counted runs of `text` and what they cover; `into` accumulates coverage over many texts. */
  scan(text: string, into: Map<number, Set<number>> = new Map()): PieceScan {
    if (!this.active || text.length < MIN_RUN) return { runs: [], covered: into };
    const { runs, covers } = this.found.get(text);
    for (const [index, positions] of covers) {
      const set = into.get(index) ?? new Set<number>();
      for (const p of positions) set.add(p);
      into.set(index, set);
    }
    return { runs, covered: into };
  }

  private findRuns(text: string): { runs: Run[]; covers: [number, readonly number[]][] } {
    const runs: Run[] = [];
    const covers: [number, readonly number[]][] = [];
    const plain = skeletonOf(text).text;
    let mapped: ReturnType<typeof skeletonOf> | undefined;
    for (const [length, table] of this.stretches) {
      if (plain.length < length) continue;
      const outgoing = power(length - 1);
      let hash = hashOf(plain, 0, length);
      for (let i = 0; ; i++) {
        const bucket = table[hash & (BUCKETS - 1)];
        const stretch = bucket?.find((s) => plain.startsWith(s.text, i));
        if (stretch) {
          mapped ??= skeletonOf(text, true);
          const start = mapped.from?.[i] ?? 0;
          const end = mapped.to?.[i + length - 1] ?? start;
          const last = runs.at(-1);
          // The next stretch of the same piece overlaps the run before: one run, grown (words were judged at its start).
          const grows = last !== undefined && start >= last.start && start < last.end;
          const counted = grows || !looksLikeWords(text.slice(start, end));
          const shows = stretch.covers.some(([, positions]) => positions.length > 0);
          if (grows && last) {
            last.end = Math.max(last.end, end);
            last.shows ||= shows;
            for (const [index] of stretch.covers) if (!last.secrets.includes(index)) last.secrets.push(index);
          } else if (counted) runs.push({ start, end, secrets: stretch.covers.map(([index]) => index), shows });
          if (counted) covers.push(...stretch.covers);
        }
        if (i + length >= plain.length) break;
        hash = roll(hash, plain.charCodeAt(i), plain.charCodeAt(i + length), outgoing);
      }
    }
    // "Provider" holds "prov" of `provcert-probe-…`: a run of a secret's words alone is no echo of it.
    return { runs: runs.filter((run) => run.shows), covers };
  }

  /** The secrets (by index) that `covered` reveals. */
  revealed(covered: Map<number, Set<number>>): Set<number> {
    const out = new Set<number>();
    for (const [index, set] of covered) if (set.size >= (this.secrets[index]?.threshold ?? Infinity)) out.add(index);
    return out;
  }

  /** `text` with every run of a revealed secret masked (runs merged where they touch). */
  mask(text: string, runs: readonly Run[], revealed: ReadonlySet<number>, mask: string): string {
    const ranges = runs
      .filter((run) => run.secrets.some((index) => revealed.has(index)))
      .map((run): [number, number] => [run.start, run.end])
      .sort((a, b) => a[0] - b[0]);
    if (ranges.length === 0) return text;
    let out = '';
    let at = 0;
    for (const [start, end] of ranges) {
      if (end <= at) continue;
      out += text.slice(at, Math.max(at, start)) + (start >= at ? mask : '');
      at = end;
    }
    return out + text.slice(at);
  }
}
