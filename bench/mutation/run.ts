import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type MutationReport, readTriage, score } from './score.js';

/**
 * `npm run mutation [-- FILE[:FROM-TO]… | --minutes N]`: Stryker over the reference provider, one file (or a line
 * range of a large file) at a time, each with its own incremental file, so a time box that ends the run keeps every
 * finished file and the next run redoes only what changed. The results of all files gather in one report, scored against the committed triage.
 */
const CONFIG = 'bench/mutation/stryker.config.mjs';
const OUT = '.provcert/mutation';
const ALL = join(OUT, 'all.json');
const PROVIDER = 'src/reference-provider';
/** Not provider behaviour: the fault switches (test equipment) and the package entry (stryker.config.mjs). */
const NOT_MUTATED = new Set(['faults.ts', 'echo-fault.ts', 'index.ts']);
/** Files whose code only the conforming variants run: their mutants are certified on every variant too. */
const VARIANT_FILES = new Set(['variants.ts', 'variant-minimal.ts']);
const isFaultFile = (name: string): boolean => NOT_MUTATED.has(name) || name.endsWith('-faults.ts');

function parseArgs(argv: string[]): { files: string[]; minutes: number } {
  const files: string[] = [];
  let minutes = 90;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--minutes') minutes = Number(argv[(i += 1)]);
    else files.push(arg);
  }
  if (!Number.isFinite(minutes) || minutes <= 0) throw new Error('--minutes takes a positive number');
  return { files, minutes };
}

/** Smallest first: a short time box still finishes files instead of half of a large one. */
function providerFiles(): string[] {
  return readdirSync(PROVIDER)
    .filter((name) => name.endsWith('.ts') && !isFaultFile(name))
    .map((name) => join(PROVIDER, name))
    .sort((a, b) => statSync(a).size - statSync(b).size);
}

/** A mutant's place and change: the same key in two runs of an unchanged source is the same mutant. */
const mutantPlace = (m: MutationReport['files'][string]['mutants'][number]): string =>
  `${m.mutatorName}@${m.location.start.line}:${m.location.start.column}-${m.location.end.line}:${m.location.end.column}=${m.replacement ?? ''}`;

/**
 * Folds one run's files into the gathered report. A run over a line range (`FILE:10-80`) reports only that range's
 * mutants: while the source is unchanged, the other ranges' results are kept and this run's replace their own.
 */
function gather(all: MutationReport, run: MutationReport): void {
  for (const [file, result] of Object.entries(run.files)) {
    const before = all.files[file];
    if (before === undefined || before.source !== result.source) {
      all.files[file] = result;
      continue;
    }
    const merged = new Map(before.mutants.map((m) => [mutantPlace(m), m]));
    for (const m of result.mutants) merged.set(mutantPlace(m), m);
    all.files[file] = { source: result.source, mutants: [...merged.values()] };
  }
}

/**
 * A digest of what judges a mutant: every source outside the reference provider (the checks, the runner) and the
 * bench's certification. Stryker's incremental mode tracks only the mutated files and the test file, so a check that
 * changed would otherwise reuse an old verdict (a stale kill inflates the score, a stale survivor is a false hole);
 * each digest keeps its own incremental file.
 */
function certificationDigest(): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (path === PROVIDER) continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts')) hash.update(path).update(readFileSync(path));
    }
  };
  walk('src');
  hash.update(readFileSync('bench/mutation/certify-reference.mutation.ts'));
  return hash.digest('hex').slice(0, 12);
}

function readReport(path: string): MutationReport {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as MutationReport) : { files: {} };
}

/**
 * Stryker in a process group of its own, ended whole when this runner is stopped: Stryker's workers would otherwise
 * outlive a runner killed by a time box or a CI timeout and keep burning CPU for an hour. Resolves to its exit code.
 */
function runStryker(args: string[], env: NodeJS.ProcessEnv): Promise<number | null> {
  const child = spawn('npx', ['stryker', 'run', ...args], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env,
    detached: true,
  });
  const stop = (signal: NodeJS.Signals): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // The group has already ended.
    }
    process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
  return new Promise((resolve) => {
    child.once('error', () => resolve(null));
    child.once('exit', (code) => {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      resolve(code);
    });
  });
}

async function main(): Promise<void> {
  const { files: chosen, minutes } = parseArgs(process.argv.slice(2));
  const files = chosen.length > 0 ? chosen : providerFiles();
  const deadline = Date.now() + minutes * 60_000;
  mkdirSync(join(OUT, 'incremental'), { recursive: true });
  const all = readReport(ALL);
  const skipped: string[] = [];
  const digest = certificationDigest();
  for (const file of files) {
    if (Date.now() >= deadline) {
      skipped.push(file);
      continue;
    }
    console.log(`mutation: ${file} (${new Date().toISOString()})`);
    const incremental = join(OUT, 'incremental', `${basename(file).replace(/\.ts(?=$|:)/, '')}.${digest}.json`);
    const status = await runStryker([CONFIG, '--mutate', file, '--incrementalFile', incremental], {
      ...process.env,
      PROVCERT_MUTATION_VARIANTS: VARIANT_FILES.has(basename(file).split(':')[0] ?? '') ? '1' : '0',
    });
    if (status !== 0) {
      console.error(`mutation: Stryker failed on ${file} (exit ${status}); its earlier result is kept`);
      continue;
    }
    gather(all, readReport(join(OUT, 'mutation.json')));
    writeFileSync(ALL, JSON.stringify(all));
  }
  const s = score(all, readTriage('bench/mutation/triage.yaml'));
  const survivors = join(OUT, 'survivors.txt');
  writeFileSync(survivors, s.untriaged.map((u) => `${u.key}  (line ${u.line})`).join('\n'));
  console.log(
    `mutation score: ${s.percent.toFixed(1)} % of non-equivalent mutants killed (${s.killed} killed, ` +
      `${s.excused} equivalent or not observable by triage, ${s.holes.length} known holes, ` +
      `${s.untriaged.length} untriaged, ${s.ignored} ignored; ${Object.keys(all.files).length} files)`,
  );
  if (s.untriaged.length > 0)
    console.log(`untriaged survivors: ${survivors} (triage them in bench/mutation/triage.yaml)`);
  if (skipped.length > 0) console.log(`time box reached; not run this time: ${skipped.join(', ')}`);
  process.exitCode = s.untriaged.length > 0 || skipped.length > 0 ? 1 : 0;
}

await main();
