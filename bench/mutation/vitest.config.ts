import { defineConfig } from 'vitest/config';

// The mutation bench's one test file, run by Stryker's vitest runner (stryker.config.mjs).
export default defineConfig({
  test: {
    include: ['bench/mutation/certify-reference.mutation.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    globalSetup: ['./test/support/temp-root.ts'],
    setupFiles: ['./test/support/scratch-cleanup.ts'],
  },
});
