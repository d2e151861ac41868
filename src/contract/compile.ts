import { _, type Ajv2020, Name, type Options } from 'ajv/dist/2020.js';
import { err, ok, type Result } from '../util/result.js';
import { createAjv } from '../util/schema-compiler.js';
import type { Contract } from './contract.js';
import { type ContractValidator, contractFromData } from './contract-from-data.js';
import { capCollectedErrors } from './error-cap.js';
import { contractFormats } from './formats.js';
import { buildContractModel, CONTRACT_ID, type ContractModel } from './model.js';
import { NON_EMPTY_KEYWORD } from './non-empty.js';
import { nonEmptyKeyword } from './non-empty-keyword.js';
import type { SpecError } from './types.js';
import { WARNING_KEYWORDS, warningKeywords } from './warnings.js';

/** OpenAPI 3.1 adds these to JSON Schema; ajv must know them to stay strict about everything else. */
const OPENAPI_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];

/** The identifier under which standalone code imports formats.ts (see generate.ts). */
export const FORMATS_IMPORT = 'contractFormats';

/**
 * An ajv instance set up for the contract's schemas: formats, warning keywords, OpenAPI and x- keywords,
 * and the component schemas under CONTRACT_ID. With `standalone`, it keeps the code of what it compiles
 * (ES module syntax, formats read from FORMATS_IMPORT) for the build to write out; validation is the same.
 */
export function createContractAjv(
  model: ContractModel,
  specPath: string,
  standalone = false,
): Result<Ajv2020, SpecError> {
  const options: Options = { allErrors: true, verbose: true, strict: true, strictTypes: false, strictRequired: false };
  // Standalone code is written from ajv's unprocessed source: generate.ts applies capCollectedErrors itself.
  options.code = standalone
    ? { source: true, esm: true, lines: true, formats: _`${new Name(FORMATS_IMPORT)}` }
    : { process: (code: string) => capCollectedErrors(code) };
  const ajv = createAjv(options);
  for (const [name, format] of Object.entries(contractFormats)) ajv.addFormat(name, format);
  for (const keyword of [...warningKeywords, nonEmptyKeyword]) ajv.addKeyword(keyword);
  const codeKeywords = new Set<string>([...WARNING_KEYWORDS, NON_EMPTY_KEYWORD]);
  for (const keyword of [...OPENAPI_KEYWORDS, ...model.extensions])
    if (!codeKeywords.has(keyword)) ajv.addKeyword(keyword);
  try {
    ajv.addSchema({ $id: CONTRACT_ID, $defs: model.defs });
  } catch (e) {
    return err({
      kind: 'bad-schema',
      message: `${specPath}: components/schemas cannot be compiled: ${(e as Error).message}`,
    });
  }
  return ok(ajv);
}

/** Compile a bundled document into a Contract at run time (`--spec`). Validators compile lazily, once each. */
export function compileContract(doc: Record<string, unknown>, specPath: string): Result<Contract, SpecError> {
  const model = buildContractModel(doc);
  const created = createContractAjv(model, specPath);
  if (!created.ok) return created;
  const ajv = created.value;
  const compiled = new Map<string, ContractValidator>();
  return ok(
    contractFromData(model.data, specPath, (id) => {
      let validate = compiled.get(id);
      if (!validate) {
        validate = ajv.compile(model.validatorSchemas.get(id) ?? {});
        compiled.set(id, validate);
      }
      return validate;
    }),
  );
}
