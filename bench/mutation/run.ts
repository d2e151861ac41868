import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type MutationReport, readTriage, score } from './score.js';

/**
 * `npm run mutation [-- FILE… | --minutes N]`: Stryker over the reference provider, one file at a time, each with
 * its own incremental file, so a time box that ends the run keeps every finished file and the next run redoes only
 * what changed. The results of all files gather in one report, scored against the committed triage.
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

function readReport(path: string): MutationReport {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as MutationReport) : { files: {} };
}

function main(): void {
  const { files: chosen, minutes } = parseArgs(process.argv.slice(2));
  const files = chosen.length > 0 ? chosen : providerFiles();
  const deadline = Date.now() + minutes * 60_000;
  mkdirSync(join(OUT, 'incremental'), { recursive: true });
  const all = readReport(ALL);
  const skipped: string[] = [];
  for (const file of files) {
    if (Date.now() >= deadline) {
      skipped.push(file);
      continue;
    }
    console.log(`mutation: ${file} (${new Date().toISOString()})`);
    const incremental = join(OUT, 'incremental', `${basename(file, '.ts')}.json`);
    const run = spawnSync('npx', ['stryker', 'run', CONFIG, '--mutate', file, '--incrementalFile', incremental], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, PROVCERT_MUTATION_VARIANTS: VARIANT_FILES.has(basename(file)) ? '1' : '0' },
    });
    if (run.status !== 0) {
      console.error(`mutation: Stryker failed on ${file} (exit ${run.status}); its earlier result is kept`);
      continue;
    }
    Object.assign(all.files, readReport(join(OUT, 'mutation.json')).files);
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

main();
