import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/program.js';
import { packageRoot } from '../../src/util/package-root.js';

/** The layers below the cli: they name settings (webhookPort), never the flags the cli spells them as. */
const LOWER_LAYERS = ['runner', 'fleet', 'checks', 'server', 'contract', 'http', 'model', 'util', 'report', 'doctor'];

/**
 * Advice written into findings and reports (report content, not errors): it still names the flag a person types.
 * Turning it into setting references the reporters spell per front end is its own change; this list only shrinks
 * (an entry that no longer occurs fails the test too).
 */
const ADVICE_IN_FINDINGS: ReadonlyArray<readonly [file: string, flag: string]> = [
  ['checks/capabilities.ts', '--capabilities'],
  ['checks/quote-expiry.ts', '--max-expiry-wait'],
  ['checks/quote-explore.ts', '--explore'],
  ['checks/quote-explore.ts', '--seed'],
  ['checks/support/address.ts', '--local'],
  ['doctor/address.ts', '--base-url'],
  ['doctor/address.ts', '--local'],
  ['doctor/auth.ts', '--auth'],
  ['doctor/auth.ts', '--credential-env'],
  ['doctor/auth.ts', '--credential-file'],
  ['doctor/http-probes.ts', '--base-url'],
  ['doctor/http-probes.ts', '--timeout'],
  ['doctor/network.ts', '--base-url'],
  ['doctor/network.ts', '--timeout'],
  ['doctor/tls.ts', '--timeout'],
  ['http/client.ts', '--timeout'],
  ['report/consistency.ts', '--only'],
  ['report/consistency.ts', '--skip'],
  ['report/read-report.ts', '--json'],
  ['server/core-routes/base-address.ts', '--local'],
];

/** Every long flag of every provcert command. */
function cliFlags(): Set<string> {
  const flags = COMMANDS.flatMap((spec) => spec.declare(new Command(spec.name)).options.map((o) => o.long));
  return new Set(flags.filter((f): f is string => f !== undefined));
}

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
  it('the lower layers raise errors and write messages with setting names; only the listed findings advice remains', async () => {
    const flags = cliFlags();
    expect(flags.has('--webhook-port')).toBe(true);
    const found: string[] = [];
    for (const layer of LOWER_LAYERS) {
      for (const path of await sourceFiles(join(packageRoot, 'src', layer))) {
        const code = withoutComments(await readFile(path, 'utf8'));
        const file = relative(join(packageRoot, 'src'), path);
        // Not CSS custom properties (`--skip: #6e7781`, `var(--skip)`) of the HTML report's style sheet.
        for (const match of code.matchAll(/(?<!var\()(?<![\w-])--[a-z][a-z-]*(?![\w-]|\s*:)/g)) {
          if (flags.has(match[0]) && !found.includes(`${file} ${match[0]}`)) found.push(`${file} ${match[0]}`);
        }
      }
    }
    expect(found.sort()).toEqual(ADVICE_IN_FINDINGS.map(([file, flag]) => `${file} ${flag}`).sort());
  });
});
