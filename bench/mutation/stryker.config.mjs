// Mutation bench: how many unforeseen provider bugs certification catches. Stryker mutates the reference
// provider's behaviour; the "test" is one certification of the mutated provider per auth method and variant
// (certify-reference.mutation.ts): a mutant is killed when a verdict is not PASS. Outside CI: `npm run mutation`.
// Every fault file is test equipment: faults.ts, echo-fault.ts and each *-faults.ts beside a behaviour file.
const FAULT_SWITCHES = ['faults', '*-faults', 'echo-fault'];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'bench/mutation/vitest.config.ts', related: false },
  plugins: ['@stryker-mutator/vitest-runner', './bench/mutation/fault-switch-ignorer.mjs'],
  ignorers: ['fault-switches'],
  mutate: [
    'src/reference-provider/**/*.ts',
    ...FAULT_SWITCHES.map((name) => `!src/reference-provider/${name}.ts`),
    // The package entry only re-exports and starts; its option checks are the tests' concern, not a provider's.
    '!src/reference-provider/index.ts',
  ],
  // Only what the certification imports is needed in the sandbox.
  ignorePatterns: ['dist', 'docs', 'examples', '.provcert', 'bench/*.ts'],
  coverageAnalysis: 'perTest',
  // Two cores: one certification each.
  concurrency: 2,
  // A machine shared with other work can double a certification's time between the dry run and a mutant's run;
  // a generous timeout keeps a slow survivor from counting as killed (Stryker counts a timeout as killed).
  timeoutFactor: 3,
  timeoutMS: 60_000,
  incremental: true,
  incrementalFile: '.provcert/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: '.provcert/mutation/mutation.json' },
  tempDirName: '.provcert/mutation/tmp',
  cleanTempDir: 'always',
};
