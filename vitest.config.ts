import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
    globalSetup: ['./test/support/temp-root.ts'],
    setupFiles: ['./test/support/scratch-cleanup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
