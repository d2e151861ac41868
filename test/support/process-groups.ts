import { type ChildProcessByStdio, type SpawnOptions, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';

/**
 * The environment variable that marks every process the suite starts through here (and everything those start,
 * since the environment is inherited): its value is the suite's temp root. The global teardown finds what is still
 * running by it, even the grandchildren of a worker that was killed before it could clean up.
 */
export const SUITE_TAG = 'TEST_SUITE_TAG';

/** The suite's tag, for a child given an environment of its own rather than this one. */
export function suiteTag(): Record<string, string> {
  const tag = process.env[SUITE_TAG];
  return tag === undefined ? {} : { [SUITE_TAG]: tag };
}

/** Process groups started by this worker and not yet seen empty. */
const groups = new Set<number>();

/** The fields of /proc/<pid>/stat after the command name (state, ppid, pgrp, …), or undefined when gone. */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may hold spaces; the fields after its closing parenthesis do not.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

const procPids = (): string[] | undefined => {
  try {
    return readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
};

/**
 * Whether any process of group `pgid` is still running. A zombie does not count: it has ended, and where PID 1
 * does not reap orphans (as in some containers) it would otherwise count forever.
 */
export function groupAlive(pgid: number): boolean {
  const pids = procPids();
  if (pids !== undefined)
    return pids.some((pid) => {
      const fields = statFields(pid);
      return fields !== undefined && fields[0] !== 'Z' && Number(fields[2]) === pgid;
    });
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether process `pid` is running (a zombie has ended). */
export function processAlive(pid: number): boolean {
  const fields = statFields(pid);
  if (procPids() !== undefined) return fields !== undefined && fields[0] !== 'Z';
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Kills every group this worker started that may still run (SIGKILL: they are test backends, nothing to flush),
 * and returns their ids. Synchronous, so it also works on the way out of the process.
 */
export function endProcessGroups(): number[] {
  const ended = [...groups];
  for (const pgid of ended) signalGroup(pgid, 'SIGKILL');
  groups.clear();
  return ended;
}

let handlersInstalled = false;

/** A worker ended by Ctrl-C or SIGTERM takes its groups with it; so does one that exits on its own. */
function installExitHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => endProcessGroups());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      endProcessGroups();
      // Then die of the same signal, as the worker would have without this handler.
      process.kill(process.pid, signal);
    });
  }
}

/**
 * `spawn` in a process group of its own, tagged for the suite, stdin closed and output piped. Whatever it starts in
 * the background stays in the group, so endProcessGroups (afterEach/afterAll), the worker's exit and SIGINT/SIGTERM
 * end all of it.
 */
export function spawnGroup(
  command: string,
  args: string[],
  options: Omit<SpawnOptions, 'stdio' | 'detached'> = {},
): ChildProcessByStdio<null, Readable, Readable> {
  installExitHandlers();
  const env = { ...(options.env ?? process.env), ...suiteTag() };
  const child = spawn(command, args, { ...options, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const pgid = child.pid;
  if (pgid !== undefined) {
    groups.add(pgid);
    child.on('close', () => {
      if (!groupAlive(pgid)) groups.delete(pgid);
    });
  }
  return child;
}

export interface TaggedProcess {
  pid: number;
  command: string;
  /** The suite root the process is tagged with. */
  tag: string;
}

/** Running processes tagged SUITE_TAG, read from /proc (Linux; elsewhere none are found). */
export function taggedProcesses(): TaggedProcess[] {
  const entries = procPids() ?? [];
  const found: TaggedProcess[] = [];
  for (const name of entries) {
    try {
      const variables = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0');
      const tag = variables.find((v) => v.startsWith(`${SUITE_TAG}=`))?.slice(SUITE_TAG.length + 1);
      if (tag === undefined) continue;
      const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
      found.push({ pid: Number(name), command, tag });
    } catch {
      // Gone meanwhile, or another user's.
    }
  }
  return found;
}

/** The parent of `pid`, from /proc (undefined when unknown). */
export function parentOf(pid: number): number | undefined {
  const ppid = statFields(pid)?.[1];
  return ppid === undefined ? undefined : Number(ppid);
}

/** The processes tagged `tag` other than this process and its own children (the vitest workers, which carry the tag
 * because they inherit the environment). */
export function processesTagged(tag: string): TaggedProcess[] {
  return taggedProcesses().filter((p) => p.tag === tag && p.pid !== process.pid && parentOf(p.pid) !== process.pid);
}

/** Kills the processes tagged `tag` (see processesTagged), and returns what it killed. */
export function endTaggedProcesses(tag: string): TaggedProcess[] {
  const left = processesTagged(tag);
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  return left;
}
