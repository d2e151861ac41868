import { spawn } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';
import { spawnGroup } from '../support/process-groups.js';

/** Helpers for tests that install provcert the way a provider repository does: from the `npm pack` tarball. */

export const repo = join(import.meta.dirname, '../..');

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

// npm settings a provider's machine would also have (registry, cache, auth file), kept for the child npm.
const KEPT_NPM_SETTINGS = new Set([
  'npm_config_cache',
  'npm_config_registry',
  'npm_config_userconfig',
  'npm_config_cafile',
]);

/**
 * This process's environment without what `npm test` exports to its scripts: npm_config_local_prefix and
 * npm_config_prefix would point a child npm at this checkout instead of the temp project, npm_config_yes would
 * let npx download packages. GITHUB_* would switch the examples' output to a runner's (step summary, annotations).
 */
export function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith('GITHUB_')) continue;
    if (key.toLowerCase().startsWith('npm_') && !KEPT_NPM_SETTINGS.has(key.toLowerCase())) continue;
    env[key] = value;
  }
  return { ...env, NO_COLOR: '1', CI: '1', ...extra };
}

export interface RunOptions {
  env?: Record<string, string>;
  timeoutMs?: number;
  /**
   * Run in a process group of its own and end the whole group when the command exits, as a CI runner ends a job:
   * a backend a script started in the background (`npx provcert mock-provider &`) is a grandchild that a shell's
   * `kill $(jobs -p)` does not reach, and it would hold the output pipes open. The group is spawnGroup's: it also
   * ends with endProcessGroups (afterEach/afterAll) and with the worker, even when the test is cut short.
   */
  endProcessGroup?: boolean;
}

/** Runs a command to its end (killed after timeoutMs) and collects its output; never rejects on a non-zero exit. */
export function runCommand(
  command: string,
  args: string[],
  cwd: string,
  options: RunOptions = {},
): Promise<CommandResult> {
  const { env = userEnv(), timeoutMs = 120_000, endProcessGroup = false } = options;
  return new Promise((resolve, reject) => {
    const child = endProcessGroup
      ? spawnGroup(command, args, { cwd, env })
      : spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const stop = (signal: NodeJS.Signals): void => {
      try {
        if (endProcessGroup && child.pid !== undefined) process.kill(-child.pid, signal);
        else child.kill(signal);
      } catch {
        // Already gone.
      }
    };
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => stop('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('exit', () => {
      if (endProcessGroup) stop('SIGTERM');
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function succeed(command: string, args: string[], cwd: string): Promise<string> {
  const r = await runCommand(command, args, cwd);
  if (r.code !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${String(r.code)} in ${cwd}:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

export interface PackedTarball {
  /** Absolute path of the .tgz. */
  path: string;
  /** File name, e.g. provcert-0.1.0.tgz. */
  filename: string;
  /** Paths inside the package, relative to its root. */
  files: string[];
}

interface NpmPackJson {
  filename: string;
  files: { path: string }[];
}

/** The tarball the e2e and docs tiers packed once for this run (packed-once.ts), if this test's tier has one. */
function packedThisRun(): PackedTarball | undefined {
  try {
    return inject('provcertTarball') ?? undefined;
  } catch {
    return undefined; // Outside a vitest worker (the global setup itself).
  }
}

/**
 * `npm pack` of this checkout into `destination`: a copy of the run's one tarball when the tier packed it
 * (packed-once.ts), else packed here (`fresh`, or a tier without that setup). --ignore-scripts: `npm test` has
 * just built dist/, and the prepare script's rebuild would rewrite dist/ under the other test files that are
 * running the CLI from it.
 */
export async function packProvcert(destination: string, options: { fresh?: boolean } = {}): Promise<PackedTarball> {
  const once = options.fresh ? undefined : packedThisRun();
  if (once) {
    const path = join(destination, once.filename);
    await mkdir(destination, { recursive: true });
    await copyFile(once.path, path);
    return { ...once, path };
  }
  const stdout = await succeed('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], repo);
  const [packed] = JSON.parse(stdout) as NpmPackJson[];
  if (!packed) throw new Error('npm pack --json printed no package');
  return {
    path: join(destination, packed.filename),
    filename: packed.filename,
    files: packed.files.map((f) => f.path),
  };
}

/** A fresh project (`npm init -y`) with the tarball installed as a devDependency, as docs/guides/provider.md says to. */
export async function installInFreshProject(
  project: string,
  tarball: string,
  options: { lockOnly?: boolean } = {},
): Promise<void> {
  await mkdir(project, { recursive: true });
  await succeed('npm', ['init', '-y'], project);
  const lockOnly = options.lockOnly ? ['--package-lock-only'] : [];
  await succeed(
    'npm',
    ['install', '--save-dev', tarball, '--no-audit', '--no-fund', '--prefer-offline', ...lockOnly],
    project,
  );
}

export async function writeJson(path: string, value: unknown): Promise<void> {
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
}
