/*
 * `import { validate, certify } from 'provcert'`: the library behind the CLI, for providers' own test suites.
 * Matchers: 'provcert/vitest' and 'provcert/jest'; types: 'provcert/types'; the reference provider:
 * 'provcert/reference-provider'.
 */

export type { SchemaProblem } from '../contract/types.js';
export type { CheckId, CheckStatus } from '../model/check-ids.js';
export type { AuthMethod, Profile } from '../model/contract-constants.js';
export { UsageError } from '../model/errors.js';
export type { Finding } from '../model/findings.js';
export type { CheckResult, RunReport } from '../model/report.js';
export type { ExpectedFailure, WaiverOutcome } from '../model/waivers.js';
export { type CertifyOptions, certify } from './certify.js';
export { contractMatchers, type MatcherResult } from './matchers.js';
export { type ContractValidation, type SchemaName, schemaNames, validate } from './validate.js';
export {
  type ValidCertificate,
  type Verification,
  type VerifyCertificateOptions,
  verifyCertificate,
} from './verify-certificate.js';
