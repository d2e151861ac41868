/** Suggestions for a typed name that is not one of the known ones (flags, keys, schema names, check ids). */

const normalize = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/** The closest of the candidates, when it is close enough to be a plausible typo. */
export function nearest(value: string, candidates: readonly string[]): string | undefined {
  const exact = candidates.find((c) => normalize(c) === normalize(value));
  if (exact) return exact;
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(value.toLowerCase(), candidate.toLowerCase());
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(value.length / 4)) ? best.candidate : undefined;
}

/** " (did you mean X?)" for a plausible typo of one of the candidates, else "". */
export function didYouMean(value: string, candidates: readonly string[]): string {
  const suggestion = nearest(value, candidates);
  return suggestion ? ` (did you mean ${suggestion}?)` : '';
}

/** " (did you mean X?)" for a schema name: a typo's nearest name, else the names containing what was typed ("quote" → Quote, QuoteLine…). */
export function schemaSuggestion(typed: string, names: readonly string[]): string {
  const typo = didYouMean(typed, names);
  if (typo) return typo;
  const containing = names.filter((n) => n.toLowerCase().includes(typed.toLowerCase()));
  if (containing.length > 0) return ` (did you mean ${containing.join(', ')}?)`;
  // A misspelt part of a name ("Helth" for HealthResponse): the names with a word within a typo of it.
  const words = (name: string): string[] => name.split(/(?=[A-Z][a-z])|[^A-Za-z0-9]+/).filter(Boolean);
  const limit = Math.max(1, Math.floor(typed.length / 4));
  const near = names.filter((n) =>
    words(n).some((w) => w.length > 2 && editDistance(typed.toLowerCase(), w.toLowerCase()) <= limit),
  );
  return near.length > 0 && near.length <= 8 ? ` (did you mean ${near.join(', ')}?)` : '';
}
