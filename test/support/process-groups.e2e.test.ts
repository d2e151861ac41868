import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { transpileClosure } from '../server/support/transpile.js';
import {
  endProcessGroups,
  endTaggedProcesses,
  groupAlive,
  processAlive,
  SUITE_TAG,
  spawnGroup,
} from './process-groups.js';
import { scratchDir } from './scratch.js';
import { endStaleRuns } from './temp-root.js';

const REPO = join(import.meta.dirname, '../..');

/** Waits (up to 10 s) for `done`, then answers whether it happened. */
async function eventually(done: () => boolean): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if (done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return done();
}

/** The first line a process prints. */
function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    stream.on('data', (d: Buffer) => {
      text += d.toString();
      const end = text.indexOf('\n');
      if (end >= 0) resolve(text.slice(0, end));
    });
    stream.on('end', () => reject(new Error(`ended before a line: ${text}`)));
  });
}

/** The command line of a process, or '' when it is gone. */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/**
 * A background process started by a shell that then exits: an orphan, as a killed worker's backends become.
 * Answers once the shell's fork has become `sleep`: until its exec, the process still shows bash's command line.
 */
async function orphan(env: NodeJS.ProcessEnv): Promise<number> {
  const shell = spawn('bash', ['-c', 'sleep 300 >/dev/null 2>&1 & echo $!'], {
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const pid = Number(await firstLine(shell.stdout));
  await eventually(() => commandLine(pid) === 'sleep 300');
  return pid;
}

const started: number[] = [];
afterEach(() => {
  endProcessGroups();
  // Whatever a failing test left: each id as a process and as a group.
  for (const id of started.splice(0))
    for (const target of [id, -id])
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // Already gone.
      }
});

describe('a spawned process group', () => {
  it('is gone after endProcessGroups (what afterEach/afterAll call), background grandchild included', async () => {
    const job = spawnGroup('bash', ['-c', 'sleep 300 & echo $!; wait']);
    const grandchild = Number(await firstLine(job.stdout));
    started.push(grandchild);
    const pgid = job.pid ?? -1;
    expect(groupAlive(pgid)).toBe(true);
    expect(processAlive(grandchild)).toBe(true);
    expect(endProcessGroups()).toEqual([pgid]);
    expect(await eventually(() => !groupAlive(pgid))).toBe(true);
    expect(processAlive(grandchild)).toBe(false);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('ends with a worker stopped by %s', async (signal) => {
    const dir = await scratchDir('process-groups');
    const module = await transpileClosure(REPO, 'test/support/process-groups.ts', join(dir, 'out'));
    const worker = join(dir, 'worker.mjs');
    await writeFile(
      worker,
      `import { spawnGroup } from ${JSON.stringify(module)};
const job = spawnGroup('bash', ['-c', 'sleep 300 & wait']);
process.stdout.write(job.pid + '\\n');
setInterval(() => undefined, 1000);
`,
    );
    const child = spawn(process.execPath, [worker], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pgid = Number(await firstLine(child.stdout));
    started.push(pgid);
    expect(groupAlive(pgid)).toBe(true);
    const ended = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, s) => resolve(s)));
    child.kill(signal);
    expect(await ended).toBe(signal);
    expect(await eventually(() => !groupAlive(pgid))).toBe(true);
  });
});

describe('processes the suite left running', () => {
  it('the global teardown finds them by their tag, kills them and names them', async () => {
    const root = await scratchDir('suite-tag');
    const pid = await orphan({ PATH: process.env['PATH'] ?? '', [SUITE_TAG]: root });
    started.push(pid);
    expect(processAlive(pid)).toBe(true);
    const ended = endTaggedProcesses(root);
    expect(ended.map((p) => [p.pid, p.command])).toEqual([[pid, 'sleep 300']]);
    expect(await eventually(() => !processAlive(pid))).toBe(true);
    expect(endTaggedProcesses(root)).toEqual([]);
  });

  it('the global teardown itself: kills what a test left running, names it and fails the run', async () => {
    const dir = await scratchDir('teardown');
    const module = await transpileClosure(REPO, 'test/support/temp-root.ts', join(dir, 'out'));
    const suite = join(dir, 'suite.mjs');
    await writeFile(
      suite,
      `import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setup, teardown } from ${JSON.stringify(module)};
setup();
// A test that starts a backend in the background and forgets it: the orphan inherits the suite's environment.
const shell = spawn('bash', ['-c', 'sleep 300 >/dev/null 2>&1 & echo $!'], { stdio: ['ignore', 'pipe', 'ignore'] });
let pid = '';
shell.stdout.on('data', (d) => (pid += d));
await new Promise((resolve) => shell.on('close', resolve));
// Until its exec, the fork still shows bash's command line.
const shows = () => { try { return readFileSync('/proc/' + pid.trim() + '/cmdline', 'utf8'); } catch { return ''; } };
for (let i = 0; i < 200 && !shows().startsWith('sleep'); i++) await new Promise((resolve) => setTimeout(resolve, 50));
process.stdout.write(pid);
await teardown();
`,
    );
    const child = spawn(process.execPath, [suite], { env: { PATH: process.env['PATH'] ?? '', TMPDIR: dir } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const pid = Number(stdout.trim());
    started.push(pid);
    expect(code, stderr).toBe(1);
    expect(stderr).toContain(
      `the suite left 1 processes running (killed now; every test ends what it started): ${pid} sleep 300`,
    );
    expect(await eventually(() => !processAlive(pid))).toBe(true);
  });

  it('the global setup ends what a killed earlier run left, and only that run', async () => {
    // A killed run: its root still there, its owner gone. A live run: its owner (this process) running.
    const parent = await scratchDir('stale-runs');
    const killedRun = join(parent, 'killed');
    const liveRun = join(parent, 'live');
    await mkdir(killedRun);
    await mkdir(liveRun);
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.on('exit', resolve));
    await writeFile(join(killedRun, '.owner-pid'), String(gone.pid));
    await writeFile(join(liveRun, '.owner-pid'), String(process.pid));
    const stale = await orphan({ PATH: process.env['PATH'] ?? '', [SUITE_TAG]: killedRun });
    const live = await orphan({ PATH: process.env['PATH'] ?? '', [SUITE_TAG]: liveRun });
    started.push(stale, live);
    const ended = endStaleRuns().map((p) => p.pid);
    expect(ended).toContain(stale);
    expect(ended).not.toContain(live);
    expect(await eventually(() => !processAlive(stale))).toBe(true);
    expect(processAlive(live)).toBe(true);
    expect(await readdir(parent)).toEqual(['live']);
  });
});
