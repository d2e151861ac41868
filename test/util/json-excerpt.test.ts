import { describe, expect, it } from 'vitest';
import { jsonExcerpt } from '../../src/util/json-excerpt.js';

/** A catalog far over 4 KiB with one wrong price deep inside: the report's evidence body would be cut before it. */
function bigCatalog(): { providerSlug: string; offerings: Record<string, unknown>[] } {
  const offerings: Record<string, unknown>[] = Array.from({ length: 30 }, (_, i) => ({
    id: `off-${i}`,
    title: `Pizza number ${i} `.repeat(12),
    basePrice: 1200 + i,
    variants: [{ id: `var-${i}` }],
  }));
  offerings[24] = { ...offerings[24], basePrice: '12.50' };
  return { providerSlug: 'demo', offerings };
}

describe('jsonExcerpt: the part of a body around a JSON pointer', () => {
  it('shows the failing value with its siblings, pretty-printed and marked, however large the body', () => {
    const body = bigCatalog();
    expect(JSON.stringify(body).length).toBeGreaterThan(4096);
    const excerpt = jsonExcerpt(body, '/offerings/24/basePrice');
    expect(excerpt?.at).toBe('/offerings/24');
    const lines = excerpt?.text.split('\n') ?? [];
    expect(lines.filter((_, i) => i !== 2)).toEqual([
      '{',
      '  "id": "off-24",',
      '  "basePrice": "12.50",  ← here',
      '  "variants": [… 1 item]',
      '}',
    ]);
    // A long sibling is shortened; the value the finding is about never is.
    expect(lines[2]).toMatch(/^ {2}"title": "…" \/\* \d+ characters \*\/,$/);
    expect(lines[2]?.length).toBeLessThan(140);
  });

  it('a node inside a long array shows the entries around it and counts the others', () => {
    const excerpt = jsonExcerpt(bigCatalog(), '/offerings/24');
    expect(excerpt?.at).toBe('/offerings');
    const lines = excerpt?.text.split('\n') ?? [];
    expect(lines[1]).toBe('  … 18 before');
    expect(lines.find((l) => l.includes('/* 24 */'))).toBe('  /* 24 */ {');
    expect(excerpt?.text).toContain('"basePrice": "12.50"');
    expect(lines.at(-2)).toMatch(/^ {2}\/\* 29 \*\/ \{… 4 fields\}$/);
    expect(lines.filter((l) => /^ {2}\/\* \d+ \*\//.test(l))).toHaveLength(12);
  });

  it('a missing field is shown by the object it is missing from', () => {
    const excerpt = jsonExcerpt({ offerings: [{ id: 'a', basePrice: 1 }] }, '/offerings/0/title');
    expect(excerpt).toEqual({ at: '/offerings/0', text: '{\n  "id": "a",\n  "basePrice": 1\n}' });
  });

  it('the root, escaped keys, and no pointer at all', () => {
    expect(jsonExcerpt({ a: 1 }, '')?.text).toBe('{\n  "a": 1\n}');
    expect(jsonExcerpt({ 'a/b': { c: 'x' } }, '/a~1b/c')).toEqual({ at: '/a~1b', text: '{\n  "c": "x"  ← here\n}' });
    expect(jsonExcerpt({ a: 1 }, 'not-a-pointer')).toBeUndefined();
  });
});
