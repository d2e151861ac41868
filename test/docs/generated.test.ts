import { readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderPages } from '../../scripts/docs/generate.js';
import { BLOCKS } from '../../scripts/docs/pages.js';
import { repo } from '../cli/packed-provcert.js';
import { runCli } from '../support/cli.js';
import { scratchDir } from '../support/scratch.js';
import { cellsOf, tableAfter } from './markdown-blocks.js';

/**
 * The reference tables of docs/ are generated from their sources (scripts/docs/; `npm run docs` writes them, and
 * `npm run docs:check` fails in CI when one is stale). Here: none is stale, staleness is caught, and each table
 * says what the CLI itself prints.
 */

const page = (path: string): string => readFileSync(join(repo, path), 'utf8');
const rowsOf = (path: string, marker: string): string[][] => tableAfter(path, page(path), marker).slice(2).map(cellsOf);
const unquoted = (cell: string | undefined): string => (cell ?? '').replace(/`/g, '');
const flagsIn = (cell: string): string[] => cell.match(/--[a-z][a-z-]*/g) ?? [];

const scratch: string[] = [];
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

describe('generated docs', () => {
  it('every generated table is what its source renders today (npm run docs:check)', async () => {
    const pages = await renderPages(repo);
    expect(pages.length).toBeGreaterThanOrEqual(4);
    expect(pages.flatMap((p) => p.problems.map((problem) => `${p.page}: ${problem}`))).toEqual([]);
    expect(pages.flatMap((p) => p.stale.map((block) => `${p.page}: ${block} is stale; run npm run docs`))).toEqual([]);
  });

  it('a hand edit inside a generated table, or a missing marker, is caught naming the page and block', async () => {
    const root = await scratchDir('docs-check');
    scratch.push(root);
    await mkdir(join(root, 'docs/reference'), { recursive: true });
    const faults = 'docs/reference/faults.md';
    const edited = page(faults).replace('| `quote-total-wrong` |', '| `quote-total-wrong-edited` |');
    expect(edited).not.toBe(page(faults));
    await writeFile(join(root, faults), edited);
    const blocks = BLOCKS.filter((b) => b.page === faults);
    const [stale] = await renderPages(root, blocks);
    expect(stale?.stale).toEqual([expect.stringMatching(/^faults \(from src\/reference-provider\/faults\.ts/)]);
    expect(stale?.wanted).toBe(page(faults));

    await writeFile(join(root, faults), page(faults).replace(/<!-- end generated: faults -->/, ''));
    const [unmarked] = await renderPages(root, blocks);
    expect(unmarked?.problems).toEqual([expect.stringMatching(/needs exactly one pair of markers/)]);
  });

  it('the Checks table is what `provcert list --markdown` prints', async () => {
    const r = await runCli(['list', '--markdown']);
    expect(r.code, r.stderr).toBe(0);
    const path = 'docs/reference/checks.md';
    expect(`${tableAfter(path, page(path), '<!-- generated: checks ').join('\n')}\n`).toBe(r.stdout);
  });

  it('the faults table is what `provcert mock-provider --list-faults` prints', async () => {
    const r = await runCli(['mock-provider', '--list-faults']);
    expect(r.code, r.stderr).toBe(0);
    const listed = r.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(/\s{2,}/));
    const rows = rowsOf('docs/reference/faults.md', '<!-- generated: faults ');
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.map(([fault, check, , breaks]) => [unquoted(fault), unquoted(check), breaks])).toEqual(listed);
  });

  it('every command has a section whose options its --help names, and no command is missing', async () => {
    const path = 'docs/reference/commands.md';
    const text = page(path);
    const documented = [...text.matchAll(/^### provcert ([a-z-]+)$/gm)].map((m) => m[1] ?? '');
    const listed = (await runCli(['--help'])).stdout.split('Commands:')[1] ?? '';
    const commands = [...listed.matchAll(/^ {2}([a-z-]+)/gm)].map((m) => m[1]).filter((c) => c !== 'help');
    expect([...documented].sort()).toEqual(commands.sort());
    const helps = await Promise.all(documented.map((name) => runCli([name, '--help'])));
    documented.forEach((name, i) => {
      const help = helps[i];
      expect(help?.code, name).toBe(0);
      expect(help?.stdout).toContain(`Usage: provcert ${name}`);
      const section = text.split(`### provcert ${name}\n`)[1]?.split('\n### ')[0] ?? '';
      const flags = section
        .split('\n')
        .filter((l) => l.startsWith('| `-'))
        .flatMap((l) => flagsIn(cellsOf(l)[0] ?? ''));
      for (const flag of flags) expect(help?.stdout, `${name} ${flag}`).toMatch(new RegExp(`${flag}\\b`));
    });
  });

  it('every flag of the run options table is in `provcert run --help`', async () => {
    const help = (await runCli(['run', '--help'])).stdout;
    const flags = rowsOf('docs/reference/run-options.md', '<!-- generated: run-options ').flatMap((row) =>
      flagsIn(row[1] ?? ''),
    );
    expect(flags.length).toBeGreaterThan(20);
    for (const flag of flags) expect(help, flag).toMatch(new RegExp(`${flag}\\b`));
  });
});
