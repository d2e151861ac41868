import {
  _,
  type AnySchemaObject,
  type Code,
  type CodeKeywordDefinition,
  type KeywordCxt,
  Name,
} from 'ajv/dist/2020.js';
import { strConcat } from 'ajv/dist/compile/codegen/index.js';
import { warnIfNotSuggested, warnIfOffsetless } from './warning-hooks.js';

/**
 * Spec keywords that never reject a payload but record a warning: what the contract allows yet leaves
 * ambiguous (a timestamp without an offset) or only suggests (reason codes). They generate code that calls
 * warning-hooks.ts, so they work in validators compiled at run time and in the standalone code generated
 * at build time alike (a `validate` keyword cannot be written out as standalone code).
 */
export const WARNING_KEYWORDS = ['x-warn-without-offset', 'x-suggested-values'] as const;

/** The identifier under which standalone code imports warning-hooks.ts (see generate.ts). */
export const WARNING_HOOKS_IMPORT = 'warningHooks';

/** ajv's name for the pointer argument of every validate function (its `names.instancePath`). */
const INSTANCE_PATH = new Name('instancePath');

/** The pointer of the value being validated, as ajv computes it for its own errors. */
const instancePathOf = (cxt: KeywordCxt): Code => strConcat(INSTANCE_PATH, cxt.it.errorPath);

/** A function the generated code calls: in memory at run time, an import in standalone code. */
const hook = (cxt: KeywordCxt, name: 'warnIfOffsetless' | 'warnIfNotSuggested', fn: (...args: never[]) => void) =>
  cxt.gen.scopeValue('func', { ref: fn, code: _`${new Name(WARNING_HOOKS_IMPORT)}.${new Name(name)}` });

/** "Reason code" → "reason codes"; no title → "values". */
const pluralLabel = (parent: AnySchemaObject): string => {
  const title: unknown = parent['title'];
  return typeof title === 'string' && title !== '' ? `${title.toLowerCase()}s` : 'values';
};

const warnWithoutOffset: CodeKeywordDefinition = {
  keyword: 'x-warn-without-offset',
  type: 'string',
  schemaType: 'boolean',
  code(cxt) {
    if (cxt.schema !== true) return;
    cxt.gen.code(_`${hook(cxt, 'warnIfOffsetless', warnIfOffsetless)}(${cxt.data}, ${instancePathOf(cxt)})`);
  },
};

const suggestedValues: CodeKeywordDefinition = {
  keyword: 'x-suggested-values',
  type: 'string',
  schemaType: 'array',
  code(cxt) {
    const fn = hook(cxt, 'warnIfNotSuggested', warnIfNotSuggested);
    cxt.gen.code(_`${fn}(${cxt.data}, ${instancePathOf(cxt)}, ${cxt.schemaValue}, ${pluralLabel(cxt.parentSchema)})`);
  },
};

/** The warning keywords, to register on an ajv instance with addKeyword. */
export const warningKeywords: readonly CodeKeywordDefinition[] = [warnWithoutOffset, suggestedValues];
