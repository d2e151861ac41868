import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isSlug, SLUG_PATTERN } from '../../src/model/slug.js';
import { referenceIdentity } from '../../src/reference-provider/info.js';
import { parseExpectedFailures } from '../../src/util/expected-failures.js';

const SPEC = join(import.meta.dirname, '../../spec');

/** Each slug beside whether it is one: the one rule (src/model/slug.ts) every reader of a slug holds to. */
const SLUGS: readonly [string, boolean][] = [
  ['north-kitchen', true],
  ['a', true],
  ['7', true],
  ['a--b', true],
  ['pizza-roma-2', true],
  ['a'.repeat(64), true],
  ['a'.repeat(65), false],
  ['', false],
  ['-south', false],
  ['south-', false],
  ['-', false],
  ['North-Kitchen', false],
  ['north_kitchen', false],
  ['north kitchen', false],
  ['north.kitchen', false],
  ['süd', false],
  ['north\n', false],
  ['north/../x', false],
];

/** Every `pattern` a spec file gives a slug field (`slug`, a waiver's or an event's `provider`). */
function slugPatterns(node: unknown, path: string, out: [string, string][]): [string, string][] {
  if (Array.isArray(node)) node.forEach((item, i) => slugPatterns(item, `${path}/${i}`, out));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      const pattern = (value as { pattern?: unknown } | null)?.pattern;
      if ((key === 'slug' || key === 'provider') && typeof pattern === 'string') out.push([`${path}/${key}`, pattern]);
      slugPatterns(value, `${path}/${key}`, out);
    }
  }
  return out;
}

const waiverFor = (provider: string) => () =>
  parseExpectedFailures([{ check: 'quote-math', provider, reason: 'r', until: '2026-06-30' }], 'ci.yaml');

describe('one slug rule', () => {
  it.each(SLUGS)('%j is a slug: %s (isSlug, the reference provider, a waiver)', (slug, valid) => {
    expect(isSlug(slug)).toBe(valid);
    if (valid) {
      expect(referenceIdentity(slug).slug).toBe(slug);
      expect(waiverFor(slug)()[0]?.provider).toBe(slug);
    } else {
      expect(() => referenceIdentity(slug)).toThrow(/must be lowercase letters, digits and dashes/);
      expect(waiverFor(slug)).toThrow(/is not a provider slug/);
    }
  });

  it('is the pattern of every slug field of the spec files (registration, fleet, waivers, events, serve config)', () => {
    const files = readdirSync(SPEC).filter((f) => f.endsWith('.json') || f.endsWith('.yaml'));
    const found = files.flatMap((f) => slugPatterns(parse(readFileSync(join(SPEC, f), 'utf8')), f, []));
    const where = found.map(([path]) => path.split('/')[0]);
    for (const file of ['openapi.yaml', 'fleet.schema.json', 'expected-failures.schema.json', 'config.schema.json'])
      expect(where, file).toContain(file);
    expect(found.filter(([, pattern]) => pattern !== SLUG_PATTERN.source)).toEqual([]);
  });
});
