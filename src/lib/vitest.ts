import { expect } from 'vitest';
import { contractMatchers } from './matchers.js';
import type { SchemaName } from './validate.js';

/*
 * `import 'provcert/vitest'` (in a test file or a setupFiles entry) adds toMatchContract to Vitest's expect.
 * Vitest is the provider's own: an optional peer dependency, loaded only by this entry point.
 */
expect.extend(contractMatchers);

declare module 'vitest' {
  interface Matchers<T> {
    /**
     * Passes when the value matches the contract's schema; fails with `provcert validate`'s explained errors.
     * Returns void, as the same matcher declared for Jest (provcert/jest) does: the two must agree when both load.
     */
    toMatchContract(schemaName: SchemaName): void;
  }
}

export { contractMatchers };
