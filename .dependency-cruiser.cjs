/**
 * The layer map (docs/architecture.md): imports point down only.
 *   cli → fleet → runner → checks → http, contract → model
 *   report and server read the model; config and doctor serve the cli; lib (the package exports) sits beside cli;
 *   console sits above server and report (nothing below imports it);
 *   util and model are at the bottom.
 * Each rule names a layer and what it may import; anything else fails `npm run lint` (depcruise) naming the rule.
 */
const layers = {
  model: [],
  util: ['model'],
  http: ['util', 'model'],
  contract: ['util', 'model'],
  checks: ['http', 'contract', 'util', 'model'],
  doctor: ['http', 'util', 'model'],
  report: ['util', 'model'],
  // Certificates: in-toto statements in DSSE envelopes, Ed25519 keys, verification (serve issues, verify checks).
  certificates: ['contract', 'util', 'model'],
  server: ['certificates', 'contract', 'http', 'util', 'model'],
  'reference-provider': ['http', 'util', 'model'],
  config: ['contract', 'util', 'model'],
  runner: ['checks', 'doctor', 'server', 'http', 'contract', 'util', 'model'],
  // Many providers in one process: the batch run, its webhook inbox, shards and merging their reports.
  fleet: ['runner', 'checks', 'server', 'contract', 'util', 'model'],
  // The library entry points (package exports): beside the cli, for providers' own test suites.
  lib: ['runner', 'checks', 'certificates', 'contract', 'util', 'model'],
  // The operator console (`serve` mounts it under /console): pages of what the core API answers.
  console: ['server', 'report', 'util', 'model'],
  cli: ['console', 'fleet', 'runner', 'checks', 'doctor', 'report', 'server', 'reference-provider', 'config', 'certificates', 'http', 'contract', 'util', 'model'],
};

/**
 * What cli/ may import of each layer below it: that layer's entry points (dependency-cruiser's `cli-to-main-only`
 * idea), so the cli wires commands and never reaches into a layer's inner modules. report/, config/, console/,
 * util/ and model/ are read whole (the reporters' table, the readers, the types) and are not narrowed.
 */
const cliEntryPoints = {
  runner: ['run'],
  fleet: ['run-fleet', 'merge-reports', 'shard'],
  checks: ['framework/registry'],
  contract: ['load', 'contract', 'requirements', 'coverage'],
  doctor: ['doctor', 'render', 'types', 'auth'],
  server: ['serve', 'core-server', 'core-routes/deps'],
  http: ['host'],
  'reference-provider': ['index', 'info', 'variants'],
};

const cliEntryRule = {
  name: 'cli-to-entry-points',
  comment: `src/cli/ may import only the entry points of ${Object.keys(cliEntryPoints).join(', ')} (.dependency-cruiser.cjs cliEntryPoints)`,
  severity: 'error',
  from: { path: '^src/cli/' },
  to: {
    path: `^src/(${Object.keys(cliEntryPoints).join('|')})/`,
    pathNot: Object.entries(cliEntryPoints).flatMap(([layer, files]) => files.map((f) => `^src/${layer}/${f}\\.ts$`)),
  },
};

const layerRules = Object.entries(layers).map(([layer, allowed]) => ({
  name: `layer-${layer}`,
  comment: `src/${layer}/ may import only ${allowed.length ? allowed.map((l) => `src/${l}/`).join(', ') : 'itself'} (docs/architecture.md)`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: '^src/', pathNot: [`^src/${layer}/`, ...allowed.map((l) => `^src/${l}/`)] },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    cliEntryRule,
    {
      name: 'no-cycles',
      comment: 'A module must not depend on itself through others.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'tests-and-bench-are-not-product',
      comment: 'Product code never imports tests or benchmarks.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/contract/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
