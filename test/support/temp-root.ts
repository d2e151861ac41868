import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  endTaggedProcesses,
  processesTagged,
  SUITE_TAG,
  type TaggedProcess,
  taggedProcesses,
} from './process-groups.js';

/**
 * Vitest global setup: the suite and every process it spawns write their temp folders under one root
 * (TMPDIR), so after the suite we can tell exactly what was left behind. A leftover fails the run,
 * naming the folders; the root is removed either way.
 *
 * The root also tags the processes the suite starts (SUITE_TAG, inherited by their children): one still running
 * at the end is killed and fails the run, and one a killed earlier run left behind is killed at the start.
 */
let root: string | undefined;
let previous: string | undefined;

/** This run's own bookkeeping in the root: the pid of the process that owns it. */
const OWNER = '.owner-pid';

const describeProcesses = (list: TaggedProcess[]): string =>
  list
    .slice(0, 10)
    .map((p) => `${p.pid} ${p.command.slice(0, 120)}`)
    .join('; ');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A tag whose root is gone, or whose owner is no longer running, belongs to a run that was killed. */
function staleTag(tag: string): boolean {
  if (!existsSync(tag)) return true;
  try {
    return !alive(Number(readFileSync(join(tag, OWNER), 'utf8')));
  } catch {
    return false; // A root without an owner file is not one this setup made: leave it alone.
  }
}

/** Ends what killed earlier runs left running (their backends would hold ports and files), saying so. */
export function endStaleRuns(): TaggedProcess[] {
  const stale = [...new Set(taggedProcesses().map((p) => p.tag))].filter(staleTag);
  const ended = stale.flatMap((tag) => endTaggedProcesses(tag));
  for (const tag of stale) if (existsSync(join(tag, OWNER))) rmSync(tag, { recursive: true, force: true });
  if (ended.length > 0)
    process.stderr.write(
      `\nended ${ended.length} processes an earlier, killed test run left running: ${describeProcesses(ended)}\n`,
    );
  return ended;
}

export function setup(): void {
  endStaleRuns();
  previous = process.env.TMPDIR;
  root = mkdtempSync(join(tmpdir(), 'provcert-suite-'));
  writeFileSync(join(root, OWNER), String(process.pid));
  process.env.TMPDIR = root;
  process.env[SUITE_TAG] = root;
}

/** A process being stopped (a browser's helpers after the browser) gets this long to end by itself. */
const GRACE_MS = 3000;

export async function teardown(): Promise<void> {
  if (root === undefined) return;
  for (let waited = 0; waited < GRACE_MS && processesTagged(root).length > 0; waited += 100)
    await new Promise((resolve) => setTimeout(resolve, 100));
  const running = endTaggedProcesses(root);
  const left = readdirSync(root).filter((name) => name !== OWNER);
  rmSync(root, { recursive: true, force: true });
  if (previous === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previous;
  delete process.env[SUITE_TAG];
  if (running.length > 0) {
    process.exitCode = 1;
    process.stderr.write(
      `\nthe suite left ${running.length} processes running (killed now; every test ends what it started): ${describeProcesses(running)}\n`,
    );
  }
  if (left.length > 0) {
    // A throw here is only logged by vitest; the exit code is what CI reads.
    process.exitCode = 1;
    const names = left.slice(0, 20).join(', ');
    process.stderr.write(
      `\nthe suite left ${left.length} temp entries behind (every test removes what it made): ${names}\n`,
    );
  }
}
