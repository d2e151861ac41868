import type { Contract } from '../contract/contract.js';
import type { components } from '../contract/generated/contract-types.js';
import { precompiledContract } from '../contract/precompiled.js';
import type { SchemaProblem } from '../contract/types.js';
import { schemaSuggestion } from '../util/did-you-mean.js';

/** The name of a schema of the contract (`Catalog`, `NormalizedQuote`…): `provcert validate --list`. */
export type SchemaName = keyof components['schemas'] & string;

export interface ContractValidation {
  valid: boolean;
  /** Why the value does not match, in the words `provcert validate` prints; empty when valid. */
  errors: readonly SchemaProblem[];
  /** What the contract allows but a provider should look at (offsetless timestamps…); never a reason to fail. */
  warnings: readonly SchemaProblem[];
}

let bundled: Contract | undefined;

/** The validators `npm run build` generated: nothing parsed or compiled, the first call included. */
const contract = (): Contract => {
  bundled ??= precompiledContract();
  return bundled;
};

/** Every schema name `validate` takes, sorted. */
export const schemaNames = (): string[] => contract().schemaNames();

/**
 * Validate a value (a parsed JSON body) against a schema of the contract, in-process and synchronously.
 * Throws a TypeError naming the nearest schema when `schemaName` is not one (a typo is a test bug, not a result).
 */
export function validate(schemaName: SchemaName, value: unknown): ContractValidation {
  const c = contract();
  let result: ReturnType<Contract['validate']>;
  try {
    result = c.validate(schemaName, value);
  } catch (e) {
    // A RangeError from the validator itself (a stack overflow on absurd nesting) is not about the name.
    if (!(e instanceof RangeError) || c.hasSchema(schemaName)) throw e;
    const typed = String(schemaName);
    throw new TypeError(`provcert: unknown schema "${typed}"${schemaSuggestion(typed, c.schemaNames())}`);
  }
  return { valid: result.valid, errors: result.problems, warnings: result.warnings };
}
