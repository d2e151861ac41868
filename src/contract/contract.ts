export type { SchemaProblem } from './types.js';

import type { ContractValidator, OperationInfo, ValidationResult } from './types.js';

/** The contract as compiled from spec/openapi.yaml: validators by schema name and by operation. */
export interface Contract {
  readonly version: string;
  readonly specPath: string;
  schemaNames(): string[];
  hasSchema(name: string): boolean;
  validate(schemaName: string, value: unknown): ValidationResult;
  /**
   * The compiled validator of a schema (compiled once), undefined when there is no such schema: for a caller that
   * runs it itself on a hot path (the library's `validate`), then explains it with `problemsOf` (contract-from-data.ts).
   */
  validator(schemaName: string): ContractValidator | undefined;
  /** Validate a response body of an operation ("GET /catalog") at a status; undefined when the spec defines none. */
  validateResponse(operation: string, status: number, value: unknown): ValidationResult | undefined;
  /** Validate a request body of an operation; undefined when the spec defines none. */
  validateRequest(operation: string, value: unknown): ValidationResult | undefined;
  operations(): OperationInfo[];
  operation(key: string): OperationInfo | undefined;
  /** Values of an enum schema (e.g. "Capability", "ErrorCode"); [] when not an enum. */
  enumValues(schemaName: string): string[];
  /** The x-suggested-values of an open schema (e.g. "ReasonCode"): others are accepted with a warning. */
  suggestedValues(schemaName: string): string[];
}
