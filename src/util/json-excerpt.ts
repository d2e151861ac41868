import { isRecord } from './json.js';

/**
 * The part of a JSON body around a JSON pointer, pretty-printed, whatever the body's size (issue 34): a report keeps
 * response bodies cut at 4 KiB on one line, so the value a schema finding is about may not be in the evidence.
 * The node's container is shown with its siblings shortened and the node in full (bounded), marked "← here".
 */

/** The text of one excerpt, and the pointer of what it shows (the node's container, or the node at the root). */
export interface ExcerptText {
  /** The JSON pointer the excerpt shows (the node's parent, or the node itself at the root). */
  at: string;
  text: string;
}

const MAX_SIBLINGS = 12;
const MAX_NODE_LINES = 40;
const MAX_SCALAR_CHARS = 120;

const decode = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** The tokens of a pointer ("" is the root), or undefined when it is not a pointer. */
function tokens(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer.slice(1).split('/').map(decode);
}

/** The value at the pointer, or `missing`. */
function resolve(root: unknown, path: readonly string[]): { found: true; value: unknown } | { found: false } {
  let node = root;
  for (const key of path) {
    if (Array.isArray(node) && /^\d+$/.test(key) && Number(key) < node.length) node = node[Number(key)];
    else if (isRecord(node) && Object.hasOwn(node, key)) node = node[key];
    else return { found: false };
  }
  return { found: true, value: node };
}

/** A sibling in one line: scalars as JSON (long strings cut), containers by their size. */
function short(value: unknown): string {
  if (Array.isArray(value))
    return value.length === 0 ? '[]' : `[… ${value.length} ${value.length === 1 ? 'item' : 'items'}]`;
  if (isRecord(value)) {
    const n = Object.keys(value).length;
    return n === 0 ? '{}' : `{… ${n} ${n === 1 ? 'field' : 'fields'}}`;
  }
  const text = JSON.stringify(value) ?? 'undefined';
  // A long sibling shows its length, not its start: a cut string can be most of an echoed secret that no longer
  // matches the secret whole, and the value the finding is about is shown in full elsewhere.
  return text.length > MAX_SCALAR_CHARS && typeof value === 'string' ? `"…" /* ${value.length} characters */` : text;
}

/** The node in full, pretty-printed, at most MAX_NODE_LINES lines (the rest counted). */
function full(value: unknown, indent: string): string {
  const lines = (JSON.stringify(value, null, 2) ?? 'undefined').split('\n');
  const kept =
    lines.length > MAX_NODE_LINES
      ? [...lines.slice(0, MAX_NODE_LINES), `… ${lines.length - MAX_NODE_LINES} more lines`]
      : lines;
  return kept.map((line, i) => (i === 0 ? line : `${indent}${line}`)).join('\n');
}

/** The entries of a container to show: around the focus, the others counted. */
function window<T>(entries: readonly T[], focus: number): { shown: T[]; before: number; after: number } {
  if (entries.length <= MAX_SIBLINGS) return { shown: [...entries], before: 0, after: 0 };
  const half = Math.floor(MAX_SIBLINGS / 2);
  const start = Math.max(0, Math.min(focus - half, entries.length - MAX_SIBLINGS));
  return {
    shown: entries.slice(start, start + MAX_SIBLINGS),
    before: start,
    after: entries.length - start - MAX_SIBLINGS,
  };
}

/** A container with its entries one a line; the focused key in full and marked. */
function container(value: unknown, focusKey: string | undefined): string {
  const isArray = Array.isArray(value);
  const entries: [string, unknown][] = isArray
    ? (value as unknown[]).map((v, i) => [String(i), v])
    : Object.entries(value as Record<string, unknown>);
  const focus = Math.max(
    0,
    entries.findIndex(([k]) => k === focusKey),
  );
  const { shown, before, after } = window(entries, focus);
  const lines = [isArray ? '[' : '{'];
  if (before > 0) lines.push(`  … ${before} before`);
  shown.forEach(([key, v], i) => {
    const label = isArray ? '' : `${JSON.stringify(key)}: `;
    const comma = i < shown.length - 1 || after > 0 ? ',' : '';
    const mark = key === focusKey ? '  ← here' : '';
    const text = key === focusKey ? full(v, '  ') : short(v);
    lines.push(`  ${isArray ? `/* ${key} */ ` : ''}${label}${text}${comma}${mark}`);
  });
  if (after > 0) lines.push(`  … ${after} more`);
  lines.push(isArray ? ']' : '}');
  return lines.join('\n');
}

/**
 * The excerpt of `json` around `pointer`: the node's container (its siblings shortened, the node in full and
 * marked), or for the root the root's own fields; undefined when the pointer does not resolve (the node is missing:
 * then its nearest existing container is shown, marked nowhere).
 */
export function jsonExcerpt(json: unknown, pointer: string): ExcerptText | undefined {
  const path = tokens(pointer);
  if (!path) return undefined;
  // The deepest part of the path that exists: a missing node is shown by the container it is missing from.
  let depth = path.length;
  while (depth > 0 && !resolve(json, path.slice(0, depth)).found) depth--;
  const existing = path.slice(0, depth);
  const node = resolve(json, existing);
  if (!node.found) return undefined;
  const onContainer = (value: unknown): boolean => Array.isArray(value) || isRecord(value);
  const pointerOf = (p: readonly string[]): string =>
    p.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  if (existing.length > 0 && depth === path.length) {
    const parentPath = existing.slice(0, -1);
    const parent = resolve(json, parentPath);
    if (parent.found && onContainer(parent.value))
      return { at: pointerOf(parentPath) || '(root)', text: container(parent.value, existing.at(-1)) };
  }
  if (onContainer(node.value)) return { at: pointerOf(existing) || '(root)', text: container(node.value, undefined) };
  return { at: pointerOf(existing) || '(root)', text: full(node.value, '') };
}
