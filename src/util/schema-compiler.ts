import { Ajv2020, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { specSchema } from './spec-schema.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object's default.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/**
 * Keywords of provcert's own schemas that carry words for messages or how a value is read, not rules
 * (`x-expected: "a date"`; `x-path: true`, a file path resolved against the file that names it; `x-flag-value: "ms"`,
 * the value's name in a flag's help; `x-file-only: true`, a config file key that is no flag and no variable).
 */
const ANNOTATION_KEYWORDS = ['x-expected', 'x-path', 'x-flag-value', 'x-file-only'];

/**
 * The one ajv setup: JSON Schema 2020-12, strict, the standard formats and provcert's message keywords. Every
 * schema provcert compiles goes through it (config, fleet, serve config, report files, requirements catalog, the
 * contract); `options` adds what one use needs (allErrors, verbose for explanations, code generation).
 */
export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, ...options });
  addFormats(ajv);
  ajv.addVocabulary(ANNOTATION_KEYWORDS);
  return ajv;
}

/**
 * Compile the last of `names` (schemas in spec/), the ones before it added as the documents it references.
 * Compiled once per call: callers keep the result.
 */
export function compileSpecSchemas(names: readonly string[], options: Options = {}): ValidateFunction {
  const ajv = createAjv(options);
  const documents = names.map(specSchema);
  for (const referenced of documents.slice(0, -1)) ajv.addSchema(referenced);
  return ajv.compile(documents.at(-1) ?? {});
}
