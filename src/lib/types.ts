/*
 * `import type { Offering, NormalizedQuote } from 'provcert/types'`: a type for every schema of the contract,
 * generated at build from spec/openapi.yaml by openapi-typescript (also `paths`, `operations` and `components`).
 */
export type * from '../contract/generated/contract-types.js';
