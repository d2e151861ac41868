import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Five tiers, told apart by file name (docs/architecture.md, "Test tiers"). `npm test` runs them all;
 * `npm run test:unit` is the inner loop. The unit tier shares its workers (threads, no isolation) and its setup
 * file makes sockets and processes throw, so a test that needs either must say so in its name.
 */
const UNIT = '**/*.test.ts';
const INTEGRATION = '**/*.int.test.ts';
const E2E = '**/*.e2e.test.ts';
const BROWSER = '**/*.browser.test.ts';
const DOCS = 'test/docs/**/*.test.ts';

const ROOTS = ['test', 'src'];
const under = (pattern: string): string[] => ROOTS.map((root) => `${root}/${pattern}`);

/** Every tier: the suite's limits, and its cleanup after each file (temp folders, process groups). */
function tier(
  name: string,
  include: string[],
  exclude: string[],
  options: NonNullable<TestProjectInlineConfiguration['test']> = {},
): TestProjectInlineConfiguration {
  return {
    test: {
      name,
      include,
      exclude: ['**/node_modules/**', ...exclude],
      testTimeout: 60_000,
      hookTimeout: 30_000,
      pool: 'forks',
      ...options,
      setupFiles: [...(options.setupFiles ?? []), './test/support/scratch-cleanup.ts'],
    },
  };
}

/**
 * Vitest runs the projects of one group one after the other, and the groups (`sequence.groupOrder`) in turn, each
 * with one worker count. The unit tier first, on threads without isolation (one per core). Then the tiers that
 * compute (integration, browser), then those that mostly wait (docs, e2e: spawned processes, a quote's real
 * validity), 3 workers each: a waiting worker costs no CPU, but a starved one turns a generous real-time wait
 * into a failure (a CLI run's webhook wait once did). Their files share their worker's modules (no isolation: no
 * test stubs modules or the environment), so a file no longer imports and compiles provcert afresh, which was half
 * of the integration tier's CPU. PROVCERT_TEST_WORKERS overrides both counts.
 */
const workers = (count: number): number => Number(process.env['PROVCERT_TEST_WORKERS'] ?? count);
const unit = { maxWorkers: 2, pool: 'threads' as const, isolate: false, sequence: { groupOrder: 0 } };
const computing = { maxWorkers: workers(3), isolate: false, sequence: { groupOrder: 1 } };
const waiting = { maxWorkers: workers(3), isolate: false, sequence: { groupOrder: 2 } };

/** Packs provcert once for the tiers that install it as a provider does (test/cli/packed-once.ts). */
const PACKED_ONCE = ['./test/cli/packed-once.ts'];

export default defineConfig({
  test: {
    globalSetup: ['./test/support/temp-root.ts'],
    reporters: [
      'default',
      './test/support/summary-reporter.ts',
      ...(process.env['PROVCERT_TEST_TIMELINE'] ? ['./test/support/timeline-reporter.ts'] : []),
    ],
    projects: [
      tier('unit', under(UNIT), [INTEGRATION, E2E, BROWSER, DOCS], {
        ...unit,
        setupFiles: ['./test/support/unit-guard.ts'],
      }),
      tier('integration', under(INTEGRATION), [DOCS], computing),
      tier('e2e', under(E2E), [DOCS], { ...waiting, globalSetup: PACKED_ONCE }),
      tier('browser', under(BROWSER), [DOCS], computing),
      tier('docs', [DOCS], [], { ...waiting, globalSetup: PACKED_ONCE }),
    ],
  },
});
