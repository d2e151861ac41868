import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { UsageError } from '../model/errors.js';
import { packageRoot } from '../util/package-root.js';
import { err, ok, type Result } from '../util/result.js';
import { createAjv } from '../util/schema-compiler.js';
import { readYamlFile } from './yaml-file.js';

/**
 * The requirements catalog (spec/requirements.yaml): every normative rule of the contract with a stable
 * id, the quoted text and how provcert verifies it. Validated by spec/requirements.schema.json.
 */

export const BUNDLED_REQUIREMENTS_PATH = join(packageRoot, 'spec', 'requirements.yaml');
export const REQUIREMENTS_SCHEMA_PATH = join(packageRoot, 'spec', 'requirements.schema.json');
/** Where the catalog's `contract` file name is looked up (a byte copy of the shared contract). */
export const CONTRACT_COPY_DIR = join(packageRoot, 'spec', 'contract');

export type Verification = 'checked' | 'core-side' | 'not-observable';

interface RequirementFields {
  id: string;
  /** Heading path in the contract, levels separated by " › ". */
  section: string;
  /** Verbatim contract text. */
  quote: string;
  /** Other verbatim places stating the same rule. */
  restatedIn?: readonly string[];
  /** The DECISIONS.md point that settles an open reading. */
  decision?: string;
}

/** A rule some check fails a provider for breaking. */
export interface CheckedRequirement extends RequirementFields {
  verification: 'checked';
  /** Check ids (CHECK_IDS); kept as strings so a catalog naming a check still being built loads. */
  checks: readonly string[];
}

/** A rule of the core service, or one a black-box probe cannot cause or see. */
export interface UncheckedRequirement extends RequirementFields {
  verification: 'core-side' | 'not-observable';
  reason: string;
  /** A core-side rule the reference core (`provcert serve`) implements. */
  'implemented-by'?: 'serve';
  /** The test proving it: `test/….test.ts › <test title>`. */
  'proven-by'?: string;
}

export type Requirement = CheckedRequirement | UncheckedRequirement;

export interface RequirementCatalog {
  /** The file it was loaded from. */
  path: string;
  /** File name of the contract copy under spec/contract/. */
  contract: string;
  requirements: readonly Requirement[];
  requirementById(id: string): Requirement | undefined;
}

export type RequirementsErrorKind = 'not-found' | 'unreadable' | 'not-yaml' | 'invalid';

/** A catalog that cannot be used: the message names the file and the problem. */
export interface RequirementsError {
  kind: RequirementsErrorKind;
  message: string;
}

/** Thrown by loadRequirements; a UsageError, so the CLI prints its message alone (no stack). */
export class RequirementsLoadError extends UsageError {
  constructor(readonly detail: RequirementsError) {
    super(detail.message);
  }
}

/** How many schema problems one error message lists. */
const MAX_LISTED = 5;

type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
let validatorPromise: Promise<Validator> | undefined;

/** The schema compiles once per process. */
function validator(): Promise<Validator> {
  validatorPromise ??= readFile(REQUIREMENTS_SCHEMA_PATH, 'utf8').then((text) => {
    return createAjv({ allErrors: true, strictRequired: false }).compile(JSON.parse(text) as object) as Validator;
  });
  return validatorPromise;
}

/** "/requirements/3/checks" → "requirements[3] (QUOTE-BINDING) checks". */
function where(pointer: string, doc: unknown): string {
  const match = /^\/requirements\/(\d+)(.*)$/.exec(pointer);
  if (!match) return pointer === '' ? '(top level)' : pointer.slice(1).replace(/\//g, '.');
  const index = Number(match[1]);
  const entries = (doc as { requirements?: unknown[] }).requirements ?? [];
  const id = (entries[index] as { id?: unknown } | undefined)?.id;
  const field = (match[2] ?? '').slice(1).replace(/\//g, '.');
  return `requirements[${index}]${typeof id === 'string' ? ` (${id})` : ''}${field ? ` ${field}` : ''}`;
}

function describeSchemaError(e: ErrorObject, doc: unknown): string {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required') return `${where(e.instancePath, doc)}: missing "${String(params['missingProperty'])}"`;
  if (e.keyword === 'additionalProperties')
    return `${where(e.instancePath, doc)}: unknown field "${String(params['additionalProperty'])}"`;
  if (e.keyword === 'enum')
    return `${where(e.instancePath, doc)}: must be one of ${(params['allowedValues'] as unknown[]).join(', ')}`;
  if (e.keyword === 'false schema')
    return `${where(e.instancePath, doc)}: not allowed with this verification (checked entries take "checks", others "reason")`;
  return `${where(e.instancePath, doc)}: ${e.message ?? e.keyword}`;
}

/** Schema problems first; then what the schema cannot say (unique ids). */
function problemsOf(doc: unknown, validate: Validator): string[] {
  if (!validate(doc)) {
    // `if` only says which branch failed; the branch's own error is the useful one.
    return [
      ...new Set((validate.errors ?? []).filter((e) => e.keyword !== 'if').map((e) => describeSchemaError(e, doc))),
    ];
  }
  const ids = (doc as { requirements: { id: string }[] }).requirements.map((r) => r.id);
  const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  return repeated.length > 0
    ? [`requirement id(s) ${repeated.join(', ')} occur more than once; ids must be unique`]
    : [];
}

function catalogOf(path: string, doc: { contract: string; requirements: Requirement[] }): RequirementCatalog {
  const byId = new Map(doc.requirements.map((r) => [r.id, r]));
  return { path, contract: doc.contract, requirements: doc.requirements, requirementById: (id) => byId.get(id) };
}

/** Read, parse and validate a catalog; errors are values naming the file and the problem. */
export async function tryLoadRequirements(
  path: string = BUNDLED_REQUIREMENTS_PATH,
): Promise<Result<RequirementCatalog, RequirementsError>> {
  const file = resolve(path);
  const read = await readYamlFile(file, 'requirements catalog');
  if (!read.ok) return read;
  const doc = read.value;
  const problems = problemsOf(doc, await validator());
  if (problems.length > 0) {
    const listed = problems.slice(0, MAX_LISTED);
    const more = problems.length > MAX_LISTED ? `; and ${problems.length - MAX_LISTED} more` : '';
    return err({ kind: 'invalid', message: `requirements catalog ${file} is invalid: ${listed.join('; ')}${more}` });
  }
  return ok(catalogOf(file, doc as { contract: string; requirements: Requirement[] }));
}

/** Load a catalog (default: the bundled one). Throws RequirementsLoadError with a message for people. */
export async function loadRequirements(path: string = BUNDLED_REQUIREMENTS_PATH): Promise<RequirementCatalog> {
  const result = await tryLoadRequirements(path);
  if (!result.ok) throw new RequirementsLoadError(result.error);
  return result.value;
}
