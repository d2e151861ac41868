import { contractMatchers } from './matchers.js';
import type { SchemaName } from './validate.js';

interface ExtensibleExpect {
  extend(matchers: typeof contractMatchers): void;
}

/*
 * `provcert/jest` in Jest's setupFilesAfterEnv extends the global expect; with no global expect (Jest's `expect`
 * package imported explicitly, or another runner) call `expect.extend(contractMatchers)` yourself.
 */
const globalExpect = (globalThis as { expect?: Partial<ExtensibleExpect> }).expect;
if (typeof globalExpect?.extend === 'function') globalExpect.extend(contractMatchers);

declare global {
  // Jest's matcher types live in the global `jest` namespace (@types/jest; Vitest declares it too, identically).
  namespace jest {
    // biome-ignore lint/complexity/noBannedTypes: the type parameters must be exactly those of @types/jest.
    interface Matchers<R, T = {}> {
      /** Passes when the value matches the contract's schema; fails with `provcert validate`'s explained errors. */
      toMatchContract(schemaName: SchemaName): R;
    }
  }
}

export { contractMatchers };
