import { mkdtempSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Folders made through scratchDir in this test file; test/support/scratch-cleanup.ts removes them after it. */
const made = new Set<string>();

/** A fresh `provcert-<name>-*` temp folder, removed after the test file (no test has to remember it). */
export async function scratchDir(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `provcert-${name}-`));
  made.add(dir);
  return dir;
}

export async function removeScratchDirs(): Promise<void> {
  const dirs = [...made];
  made.clear();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
}

/** scratchDir for synchronous callers. */
export function scratchDirSync(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `provcert-${name}-`));
  made.add(dir);
  return dir;
}
