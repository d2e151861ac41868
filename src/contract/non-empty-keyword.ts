import { _, type CodeKeywordDefinition } from 'ajv/dist/2020.js';
import { NON_EMPTY_KEYWORD } from './non-empty.js';

/** The keyword, to register on an ajv instance with addKeyword: a string that is empty once trimmed fails. */
export const nonEmptyKeyword: CodeKeywordDefinition = {
  keyword: NON_EMPTY_KEYWORD,
  type: 'string',
  schemaType: 'boolean',
  error: { message: 'is empty' },
  code(cxt) {
    if (cxt.schema !== true) return;
    cxt.fail(_`${cxt.data}.trim() === ""`);
  },
};
