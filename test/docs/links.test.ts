import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every relative link of README.md and docs/ leads to a file that exists, and to a heading of it when it names one. */

const repo = join(import.meta.dirname, '../..');
const PAGES = [
  'README.md',
  ...readdirSync(join(repo, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f.split('\\').join('/')}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
const slugOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchorsOf(markdown: string): Set<string> {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slugOf(m[1] ?? '')));
}

function brokenLinks(page: string): string[] {
  const text = readFileSync(join(repo, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const broken: string[] = [];
  for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target)) continue;
    const [path = '', anchor] = target.split('#');
    const file = path === '' ? join(repo, page) : join(repo, dirname(page), path);
    if (!existsSync(file)) {
      broken.push(`${page}: ${target} (no ${relative(repo, file)})`);
      continue;
    }
    if (anchor && statSync(file).isFile() && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor))
      broken.push(`${page}: ${target} (no heading #${anchor})`);
  }
  return broken;
}

describe('links of README.md and docs/', () => {
  it('the slug rule is GitHub’s', () => {
    expect(slugOf('How to add …')).toBe('how-to-add-');
    expect(slugOf("For operators: reproduce a provider's failure")).toBe('for-operators-reproduce-a-providers-failure');
    expect(slugOf('Known failures: `expectedFailures`')).toBe('known-failures-expectedfailures');
  });

  it.each(PAGES)('%s links only to files and headings that exist', (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });
});
