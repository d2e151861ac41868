/**
 * Generated blocks inside hand-written pages: everything between the two markers is the generator's, everything
 * around them the author's, so a page keeps its prose while its tables follow their sources.
 */

export const beginMarker = (name: string, source: string): string =>
  `<!-- generated: ${name} · from ${source} · written by \`npm run docs\`, do not edit by hand -->`;
export const endMarker = (name: string): string => `<!-- end generated: ${name} -->`;

export type BlockResult = { ok: true; text: string } | { ok: false; problem: string };

/** `page` with the block `name` holding `body`, or why it cannot be placed (markers missing or doubled). */
export function withBlock(page: string, name: string, source: string, body: string): BlockResult {
  const begin = new RegExp(`<!-- generated: ${name} · [^\\n]*-->`, 'g');
  const end = endMarker(name);
  const begins = [...page.matchAll(begin)];
  const endAt = page.indexOf(end);
  if (begins.length !== 1 || endAt < 0 || page.indexOf(end, endAt + 1) >= 0)
    return { ok: false, problem: `needs exactly one pair of markers ${beginMarker(name, source)} … ${end}` };
  const from = begins[0]?.index ?? 0;
  if (endAt < from) return { ok: false, problem: `the end marker of block ${name} stands before its begin marker` };
  const text = `${page.slice(0, from)}${beginMarker(name, source)}\n\n${body.trimEnd()}\n\n${page.slice(endAt)}`;
  return { ok: true, text };
}
