import type { Contract } from './contract.js';
import { explainErrors } from './explain.js';
import type { ContractData } from './model.js';
import type { ContractValidator, SchemaProblem, ValidationResult } from './types.js';
import { beginWarnings, NO_PROBLEMS, takeWarnings } from './warning-hooks.js';

export type { ContractValidator } from './types.js';

/** Shared by every valid result without warnings (most of them): frozen, so no caller can change another's. */
const VALID: ValidationResult = Object.freeze({ valid: true, problems: NO_PROBLEMS, warnings: NO_PROBLEMS });

/** The problems of the validation `validate` just ran: none when valid, else its errors explained. */
export const problemsOf = (validate: ContractValidator, valid: boolean): readonly SchemaProblem[] =>
  valid ? NO_PROBLEMS : explainErrors(validate.errors ?? [], validate.errorCount);

const own = <T>(record: Record<string, T>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/**
 * The one Contract implementation: lookups by schema name, operation and status over ContractData, and
 * validation through `validatorById`. The run-time and the precompiled contract differ only in where the
 * validators come from, so they explain problems and warnings the same way.
 */
export function contractFromData(
  data: ContractData,
  specPath: string,
  validatorById: (id: string) => ContractValidator,
): Contract {
  const operations = new Map(data.operations.map((o) => [o.key, o]));
  const sortedNames = Object.keys(data.schemas).sort();

  // Each validator is looked up once: for a small body the lookups would cost as much as validating it.
  const byId = new Map<string, ContractValidator>();
  const byName = new Map<string, ContractValidator>();
  const validatorOf = (id: string): ContractValidator => {
    let validate = byId.get(id);
    if (validate === undefined) {
      validate = validatorById(id);
      byId.set(id, validate);
    }
    return validate;
  };
  const check = (validate: ContractValidator, value: unknown): ValidationResult => {
    beginWarnings();
    const valid = validate(value) === true;
    const warnings = takeWarnings();
    if (valid && warnings === NO_PROBLEMS) return VALID;
    return { valid, problems: problemsOf(validate, valid), warnings };
  };
  const run = (id: string, value: unknown): ValidationResult => check(validatorOf(id), value);
  const validatorByName = (name: string): ContractValidator | undefined => {
    let validate = byName.get(name);
    if (validate === undefined) {
      const id = own(data.schemas, name);
      if (id === undefined) return undefined;
      validate = validatorOf(id);
      byName.set(name, validate);
    }
    return validate;
  };

  return {
    version: data.version,
    specPath,
    schemaNames: () => [...sortedNames],
    hasSchema: (name) => Object.hasOwn(data.schemas, name),
    validate(name, value) {
      const validate = validatorByName(name);
      if (validate === undefined) throw new RangeError(`unknown schema "${name}"`);
      return check(validate, value);
    },
    validator: validatorByName,
    validateResponse(operation, status, value) {
      const responses = own(data.responses, operation);
      if (!responses) return undefined;
      const code = String(status);
      const id = own(responses, code) ?? own(responses, `${code[0]}XX`) ?? own(responses, 'default');
      return id === undefined || id === false ? undefined : run(id, value);
    },
    validateRequest(operation, value) {
      const id = own(data.requests, operation);
      return id === undefined ? undefined : run(id, value);
    },
    operations: () => [...operations.values()],
    operation: (key) => operations.get(key),
    enumValues: (name) => [...(own(data.enums, name) ?? [])],
    suggestedValues: (name) => [...(own(data.suggested, name) ?? [])],
  };
}
