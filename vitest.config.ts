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
 * Workers of the tiers that mostly wait (on loopback servers, spawned processes, a quote's validity): more than
 * the two cores of CI's machine, since a waiting worker costs no CPU; not many more, since a starved worker
 * turns a generous real-time wait into a failure (a CLI run's webhook wait once did). Vitest runs projects with
 * different worker counts one group after the other (`sequence.groupOrder`): the unit tier first (one worker
 * that takes all its files), then these three tiers together, then the browser tier (Chromium computes, one
 * worker). PROVCERT_TEST_WORKERS overrides the count.
 */
const WAITING_WORKERS = Number(process.env['PROVCERT_TEST_WORKERS'] ?? 3);
const waiting = { maxWorkers: WAITING_WORKERS, sequence: { groupOrder: 1 } };
const computing = { maxWorkers: 1, sequence: { groupOrder: 0 } };

/** Packs provcert once for the tiers that install it as a provider does (test/cli/packed-once.ts). */
const PACKED_ONCE = ['./test/cli/packed-once.ts'];

export default defineConfig({
  test: {
    globalSetup: ['./test/support/temp-root.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      tier('unit', under(UNIT), [INTEGRATION, E2E, BROWSER, DOCS], {
        ...computing,
        pool: 'threads',
        isolate: false,
        setupFiles: ['./test/support/unit-guard.ts'],
      }),
      tier('integration', under(INTEGRATION), [DOCS], waiting),
      tier('e2e', under(E2E), [DOCS], { ...waiting, globalSetup: PACKED_ONCE }),
      tier('browser', under(BROWSER), [DOCS], computing),
      tier('docs', [DOCS], [], { ...waiting, globalSetup: PACKED_ONCE }),
    ],
  },
});
