import type { Contract } from '../contract/contract.js';
import { problemsOf } from '../contract/contract-from-data.js';
import type { components } from '../contract/generated/contract-types.js';
import { precompiledContract } from '../contract/precompiled.js';
import type { ContractValidator, SchemaProblem } from '../contract/types.js';
import { beginWarnings, NO_PROBLEMS, takeWarnings } from '../contract/warning-hooks.js';
import { schemaSuggestion } from '../util/did-you-mean.js';

/** The name of a schema of the contract (`Catalog`, `NormalizedQuote`…): `provcert validate --list`. */
export type SchemaName = keyof components['schemas'] & string;

/** Read-only: a valid result without warnings (most results) is one frozen object shared by every call. */
export interface ContractValidation {
  readonly valid: boolean;
  /** Why the value does not match, in the words `provcert validate` prints; empty when valid. */
  readonly errors: readonly SchemaProblem[];
  /** What the contract allows but a provider should look at (offsetless timestamps…); never a reason to fail. */
  readonly warnings: readonly SchemaProblem[];
}

/** Shared by every valid result without warnings: frozen, so no caller can change what another call returns. */
const VALID: ContractValidation = Object.freeze({ valid: true, errors: NO_PROBLEMS, warnings: NO_PROBLEMS });

let bundled: Contract | undefined;

/** The validators `npm run build` generated: nothing parsed or compiled, the first call included. */
const contract = (): Contract => {
  bundled ??= precompiledContract();
  return bundled;
};

/** Every schema name `validate` takes, sorted. */
export const schemaNames = (): string[] => contract().schemaNames();

// The schema of the last call: tests validate many bodies of one schema in a row, and the lookup by name
// costs about a tenth of the time a 3-field body takes to validate.
let lastName: string | undefined;
let lastValidator: ContractValidator | undefined;

function validatorNamed(schemaName: string): ContractValidator {
  if (schemaName === lastName && lastValidator !== undefined) return lastValidator;
  const c = contract();
  const found = c.validator(schemaName);
  if (found === undefined) {
    const typed = String(schemaName);
    throw new TypeError(`provcert: unknown schema "${typed}"${schemaSuggestion(typed, c.schemaNames())}`);
  }
  lastName = schemaName;
  lastValidator = found;
  return found;
}

/**
 * Validate a value (a parsed JSON body) against a schema of the contract, in-process and synchronously.
 * Throws a TypeError naming the nearest schema when `schemaName` is not one (a typo is a test bug, not a result).
 */
export function validate(schemaName: SchemaName, value: unknown): ContractValidation {
  const run = validatorNamed(schemaName);
  // What Contract.validate does, but calling the validator here: the Contract's one call site, shared with every
  // other use of it (the CLI, the checks, other schemas), sees many validators and made a 3-field body ~15 % slower.
  beginWarnings();
  const valid = run(value) === true;
  const warnings = takeWarnings();
  if (valid && warnings === NO_PROBLEMS) return VALID;
  return { valid, errors: problemsOf(run, valid), warnings };
}
