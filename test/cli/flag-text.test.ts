import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/program.js';
import { spellAsFlag } from '../../src/cli/setting-flags.js';
import { isOptionKey, runOptionTable } from '../../src/config/options.js';
import { packageRoot } from '../../src/util/package-root.js';

/** The layers below the cli: they name settings (webhookPort), never the flags the cli spells them as. */
const LOWER_LAYERS = [
  'runner',
  'fleet',
  'checks',
  'server',
  'console',
  'reference-provider',
  'contract',
  'http',
  'model',
  'util',
  'report',
  'doctor',
];

/** Every long flag of every provcert command. */
function cliFlags(): Set<string> {
  const flags = COMMANDS.flatMap((spec) => spec.declare(new Command(spec.name)).options.map((o) => o.long));
  return new Set(flags.filter((f): f is string => f !== undefined));
}

/** Reproduce commands the user runs as they are: they spell provcert's own command lines, as curl lines spell curl's. */
const COMMAND_LINES = new Set([join('http', 'provcert-command.ts')]);

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name))
    .filter((path) => !path.includes(`${join('contract', 'generated')}`));
}

/** The code without its comments (comments may name flags: they explain, they are not output). */
const withoutComments = (text: string): string =>
  text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

describe('no layer below the cli names a CLI flag', () => {
  it('the lower layers raise errors and write findings, advice and messages with setting names', async () => {
    const flags = cliFlags();
    expect(flags.has('--webhook-port')).toBe(true);
    const found: string[] = [];
    for (const layer of LOWER_LAYERS) {
      for (const path of await sourceFiles(join(packageRoot, 'src', layer))) {
        const code = withoutComments(await readFile(path, 'utf8'));
        const file = relative(join(packageRoot, 'src'), path);
        if (COMMAND_LINES.has(file)) continue;
        // Not CSS custom properties (`--skip: #6e7781`, `var(--skip)`) of the HTML report's style sheet.
        for (const match of code.matchAll(/(?<!var\()(?<![\w-])--[a-z][a-z-]*(?![\w-]|\s*:)/g)) {
          if (flags.has(match[0]) && !found.includes(`${file} ${match[0]}`)) found.push(`${file} ${match[0]}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('the cli spells every run setting as a flag of provcert run, with its value', () => {
    const run = COMMANDS.find((spec) => spec.name === 'run');
    const runFlags = new Set(run?.declare(new Command('run')).options.map((o) => o.long));
    for (const key of Object.keys(runOptionTable().schema.properties).filter(isOptionKey)) {
      expect(runFlags, key).toContain(spellAsFlag(key));
    }
    expect(spellAsFlag('maxExpiryWait', 130)).toBe('--max-expiry-wait 130');
    expect(spellAsFlag('local')).toBe('--local');
  });
});
