/** Repeated texts in reports (one diagnosis of five events, one root cause of twenty skips) said once. */

/** A text equal to the one in the row above is shown as SAME_AS_ABOVE: one diagnosis of five events is read once. */
const SAME_AS_ABOVE = 'same as above';
export function sameAsAbove(texts: readonly string[]): string[] {
  return texts.map((text, i) => (i > 0 && text !== '' && text === texts[i - 1] ? SAME_AS_ABOVE : text));
}

/** Identical lines once, a repeated one with its count: "… (×3)". */
export function uniqueLines(lines: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  return [...counts].map(([line, n]) => (n > 1 ? `${line} (×${n})` : line));
}
