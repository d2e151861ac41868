import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLED_SPEC_PATH } from '../src/contract/bundled-path.js';
import { contractData, validators } from '../src/contract/generated/contract-validators.js';
import { compileSpecAtRunTime } from '../src/contract/load.js';
import { precompiledContract } from '../src/contract/precompiled.js';
import { validate as libraryValidate } from '../src/lib/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/provcert.js');
const SMALL_SCHEMA = 'HealthCheckResult';
const SMALL_FILE = join(ROOT, 'fixtures/payloads/HealthCheckResult/valid-minimal.json');
const PROCESS_RUNS = 10;
const CATALOG_RUNS = 30;
/** Calls per timed catalog sample (one call is a fraction of a millisecond). */
const BATCH = 10;
const WARM_UP_BATCHES = 10;
const TARGET_PROCESS_RATIO = 2.5;
const TARGET_CATALOG_RATIO = 2;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const verdict = (ok: boolean): string => (ok ? 'OK' : 'MISSED');
const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 1)} ms`;

/** Wall time of one whole process; a failing command fails the bench (a fast wrong answer is no figure). */
function timeProcess(args: string[]): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  const elapsed = performance.now() - started;
  if (run.status !== 0)
    throw new Error(`node ${args.join(' ')} exited ${String(run.status)}: ${run.stderr || run.stdout}`);
  return elapsed;
}

/** Median wall times of several commands, run interleaved so drift of the machine hits them all alike. */
function medians(commands: Record<string, string[]>): Record<string, number> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  for (let i = 0; i < PROCESS_RUNS; i++)
    for (const [name, args] of Object.entries(commands)) times[name]?.push(timeProcess(args));
  return Object.fromEntries(Object.entries(times).map(([name, values]) => [name, median(values)]));
}

/** The reference Catalog fixture with its offerings repeated (fresh ids) to at least 1 MB of JSON, parsed. */
async function catalogOfOneMegabyte(): Promise<{ value: unknown; bytes: number }> {
  const example = JSON.parse(await readFile(join(ROOT, 'fixtures/payloads/Catalog/valid-example.json'), 'utf8')) as {
    offerings: { id: string }[];
  };
  const offerings: { id: string }[] = [];
  let bytes = 0;
  for (let copy = 0; bytes < 1024 * 1024; copy++) {
    for (const offering of example.offerings) offerings.push({ ...offering, id: `${offering.id}_${copy}` });
    bytes = JSON.stringify({ ...example, offerings }).length;
  }
  // Parsed from text, as a payload arrives: shared nested objects would flatter the validator.
  return { value: JSON.parse(JSON.stringify({ ...example, offerings })) as unknown, bytes };
}

/**
 * Median ms per call of two functions, timed in alternating batches after a warm-up, so JIT and drift favour neither.
 * `calls` per batch: enough that a batch lasts well over the clock's resolution (a small body validates in ~30 ns).
 */
function pairedMedians(a: () => unknown, b: () => unknown, calls = BATCH): [number, number] {
  const batch = (fn: () => unknown): number => {
    const started = performance.now();
    for (let i = 0; i < calls; i++) fn();
    return (performance.now() - started) / calls;
  };
  for (let i = 0; i < WARM_UP_BATCHES; i++) {
    batch(a);
    batch(b);
  }
  const [timesA, timesB]: [number[], number[]] = [[], []];
  for (let i = 0; i < CATALOG_RUNS; i++) {
    timesA.push(batch(a));
    timesB.push(batch(b));
  }
  return [median(timesA), median(timesB)];
}

/** "provcert validate 180.0 ms · node -e 0 70.0 ms · 2.57× (target ≤ 2.5×) MISSED" */
const ratioLine = (label: string, actual: number, baseLabel: string, base: number, target: number): string =>
  `  ${label} ${ms(actual)} · ${baseLabel} ${ms(base)} · ${(actual / base).toFixed(2)}× (target ≤ ${target}×) ${verdict(actual / base <= target)}`;

/** `provcert validate` as providers' unit tests and CI call it: a whole process per payload, against `node -e 0` in the same run. */
/** `provcert --version` starts only what it needs (commands load lazily): issue target. */
const TARGET_VERSION_RATIO = 1.5;

async function wholeProcess(): Promise<void> {
  const specDir = await mkdtemp(join(tmpdir(), 'provcert-bench-spec-'));
  const specCopy = join(specDir, 'openapi.yaml');
  await copyFile(BUNDLED_SPEC_PATH, specCopy);
  const loadOnly = `const { loadContract } = await import(${JSON.stringify(join(ROOT, 'dist/src/contract/load.js'))});
    (await loadContract()).validate(${JSON.stringify(SMALL_SCHEMA)}, JSON.parse(process.argv[1]));`;
  const small = await readFile(SMALL_FILE, 'utf8');
  let times: Record<string, number>;
  try {
    times = medians({
      node: ['-e', '0'],
      validate: [BIN, 'validate', SMALL_SCHEMA, SMALL_FILE],
      runTimeSpec: [BIN, 'validate', '--spec', specCopy, SMALL_SCHEMA, SMALL_FILE],
      version: [BIN, '--version'],
      contractOnly: ['--input-type=module', '-e', loadOnly, small],
    });
  } finally {
    await rm(specDir, { recursive: true, force: true });
  }
  const time = (name: string): number => times[name] ?? NaN;
  console.log(`provcert validate ${SMALL_SCHEMA} <small file>, median of ${PROCESS_RUNS} whole-process runs`);
  console.log(ratioLine('provcert validate', time('validate'), 'node -e 0', time('node'), TARGET_PROCESS_RATIO));
  console.log(ratioLine('provcert --version', time('version'), 'node -e 0', time('node'), TARGET_VERSION_RATIO));
  console.log(`  for comparison: --spec (compiled at run time) ${ms(time('runTimeSpec'))}`);
  console.log(
    `    · a process that loads the precompiled contract and validates, without the CLI ${ms(time('contractOnly'))}`,
  );
}

/** A 1 MB catalog validated in-process through the Contract against the bare generated validator (the Contract's own cost). */
async function catalogInProcess(): Promise<void> {
  const { value, bytes } = await catalogOfOneMegabyte();
  const contract = precompiledContract();
  const bare = validators[contractData.schemas['Catalog'] ?? ''];
  if (!bare || !contract.validate('Catalog', value).valid) throw new Error('the bench catalog must be a valid Catalog');
  const [viaContract, viaBare] = pairedMedians(
    () => contract.validate('Catalog', value),
    () => bare(value),
  );
  const started = performance.now();
  const compiled = await compileSpecAtRunTime(BUNDLED_SPEC_PATH);
  if (!compiled.ok) throw new Error(compiled.error.message);
  compiled.value.validate('Catalog', value);
  const firstAtRunTime = performance.now() - started;
  console.log(
    `Catalog of ${(bytes / 1024 / 1024).toFixed(2)} MB validated in-process, median of ${CATALOG_RUNS} batches of ${BATCH}`,
  );
  console.log(ratioLine('Contract.validate', viaContract, 'bare generated validator', viaBare, TARGET_CATALOG_RATIO));
  console.log(
    `  for comparison: the first validation when the spec is compiled at run time takes ${ms(firstAtRunTime)}`,
  );
}

/** `import { validate } from 'provcert'` must keep at least this share of the bare validator's throughput. */
const TARGET_LIBRARY_SHARE = 0.8;

/** Calls per timed batch for bodies that validate in well under a microsecond. */
const SMALL_BATCH = 20_000;

/**
 * Throughput of the library's validate() as a share of the bare generated validator: a 3-field body (where the
 * fixed cost per call shows most), a typical quote and a 1 MB catalog.
 */
export async function libraryThroughput(): Promise<void> {
  const fixture = async (path: string): Promise<unknown> => JSON.parse(await readFile(join(ROOT, path), 'utf8'));
  const { value: catalog } = await catalogOfOneMegabyte();
  console.log(`import { validate } from 'provcert', throughput against the bare generated validator (target ≥ 80 %)`);
  for (const [schema, value, label, calls] of [
    [
      SMALL_SCHEMA,
      await fixture('fixtures/payloads/HealthCheckResult/valid-minimal.json'),
      '3-field health check',
      SMALL_BATCH,
    ],
    [
      'NormalizedQuote',
      await fixture('fixtures/payloads/NormalizedQuote/valid-example.json'),
      '1 kB quote',
      SMALL_BATCH,
    ],
    ['Catalog', catalog, '1 MB catalog', BATCH],
  ] as const) {
    const bare = validators[contractData.schemas[schema] ?? ''];
    if (!bare || !libraryValidate(schema, value).valid) throw new Error(`the bench ${label} must be a valid ${schema}`);
    const [viaLibrary, viaBare] = pairedMedians(
      () => libraryValidate(schema, value),
      () => bare(value),
      calls,
    );
    const share = viaBare / viaLibrary;
    const perSecond = (msPerCall: number): string => `${Math.round(1000 / msPerCall).toLocaleString('en-US')}/s`;
    console.log(
      `  ${label}: ${perSecond(viaLibrary)} vs ${perSecond(viaBare)} bare · ${(share * 100).toFixed(0)} % (target ≥ ${TARGET_LIBRARY_SHARE * 100} %) ${verdict(share >= TARGET_LIBRARY_SHARE)}`,
    );
  }
}

/** Issue 26: 20,000 empty offerings must validate in under 1 s, and time must grow linearly with the errors. */
const TARGET_MANY_ERRORS_MS = 1000;
const TARGET_LINEAR_RATIO = 6;

/** The library's validate() on catalogs of empty offerings: every offering adds the same number of errors. */
export function manyErrors(): void {
  const timed = (count: number): number => {
    const catalog = { providerSlug: 'p', locationId: 'l', currency: 'EUR', categories: [], offerings: [] as object[] };
    catalog.offerings = Array.from({ length: count }, () => ({}));
    const started = performance.now();
    libraryValidate('Catalog', catalog);
    return performance.now() - started;
  };
  timed(1000);
  const [small, large] = [median([1, 2, 3].map(() => timed(20_000))), median([1, 2, 3].map(() => timed(80_000)))];
  console.log('Catalog of empty offerings (5 errors each) through the library, median of 3');
  console.log(
    `  20,000 offerings ${ms(small)} (target < ${TARGET_MANY_ERRORS_MS} ms) ${verdict(small < TARGET_MANY_ERRORS_MS)} · 80,000 offerings ${ms(large)} · ${(large / small).toFixed(1)}× for 4× the errors (target ≤ ${TARGET_LINEAR_RATIO}×) ${verdict(large / small <= TARGET_LINEAR_RATIO)}`,
  );
}

export async function main(): Promise<void> {
  await wholeProcess();
  await catalogInProcess();
  await libraryThroughput();
  manyErrors();
}
