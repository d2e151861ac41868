import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest global setup: the suite and every process it spawns write their temp folders under one root
 * (TMPDIR), so after the suite we can tell exactly what was left behind. A leftover fails the run,
 * naming the folders; the root is removed either way.
 */
let root: string | undefined;
let previous: string | undefined;

export function setup(): void {
  previous = process.env.TMPDIR;
  root = mkdtempSync(join(tmpdir(), 'provcert-suite-'));
  process.env.TMPDIR = root;
}

export function teardown(): void {
  if (root === undefined) return;
  const left = readdirSync(root);
  rmSync(root, { recursive: true, force: true });
  if (previous === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previous;
  if (left.length > 0) {
    // A throw here is only logged by vitest; the exit code is what CI reads.
    process.exitCode = 1;
    const names = left.slice(0, 20).join(', ');
    process.stderr.write(
      `\nthe suite left ${left.length} temp entries behind (every test removes what it made): ${names}\n`,
    );
  }
}
