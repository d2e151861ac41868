import type { ErrorObject } from 'ajv';
import type { CountedErrors } from './error-cap.js';

export interface SchemaProblem {
  /** JSON pointer into the payload, "" for the root. */
  pointer: string;
  /** The JSON Schema keyword that failed, e.g. "type", "required"; for a warning, its rule. */
  rule: string;
  /** For people: `/offerings/3/basePrice must be integer (found string "12.50")`. */
  text: string;
}

/**
 * Read-only: a valid result without warnings (most results) is one frozen object shared by every caller.
 */
export interface ValidationResult {
  readonly valid: boolean;
  readonly problems: readonly SchemaProblem[];
  /**
   * What the contract allows but a provider should look at, found whether or not the payload is valid:
   * a timestamp without a UTC offset (rule "offsetless-timestamp"), a value outside a list the contract
   * only suggests (rule "suggested-values"). Never a reason to fail; always present, often empty.
   */
  readonly warnings: readonly SchemaProblem[];
}

/** A compiled validator: compiled by ajv at run time, or generated standalone code imported from the build. */
export interface ContractValidator extends CountedErrors {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

export interface OperationInfo {
  /** "GET /catalog"; webhooks are keyed "WEBHOOK <name>". */
  key: string;
  method: string;
  path: string;
  operationId?: string;
  /** x-capability */
  capability?: string;
  /** x-required-in: profiles in which the capability is required. */
  requiredIn: string[];
  /** x-profiles: profiles in which the operation may be used. */
  profiles: string[];
  /** Whether it declares a JSON request body. */
  requestBody: boolean;
  /** The security schemes that authenticate it: its own `security`, else the document's; empty when public. */
  security: string[];
  /** Request body fields the spec pins to one value (`const`, or an `enum` of one value). */
  pinned: PinnedField[];
  /** The query parameters it declares, in order. */
  query: QueryParameter[];
}

/** A query parameter of an operation (`GET /search`: `q`, `limit`). */
export interface QueryParameter {
  name: string;
  required: boolean;
  /** Its schema's `type` (string, integer, boolean…); absent when the schema names none. */
  type?: string;
}

/** A request body field the spec allows one value for (CreateActionInput.userConfirmed: `const: true`). */
export interface PinnedField {
  /** Property names from the body's root, e.g. ["userConfirmed"]. */
  path: string[];
  value: string | number | boolean | null;
  /** Whether the field is required (a missing one is then its own case). */
  required: boolean;
}

export type SpecErrorKind = 'not-found' | 'unreadable' | 'not-yaml' | 'not-openapi' | 'bad-ref' | 'bad-schema';

/** A spec that cannot be used: the message names the file and what to do. */
export interface SpecError {
  kind: SpecErrorKind;
  message: string;
}
