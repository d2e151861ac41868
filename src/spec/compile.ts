import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { err, ok, type Result } from '../util/result.js';
import type { Contract } from './contract.js';
import { explainErrors } from './explain.js';
import { ISO_TIMESTAMP_FORMAT, isIsoTimestamp } from './timestamp.js';
import type { OperationInfo, SpecError, ValidationResult } from './types.js';
import { addWarningKeywords, createWarningCollector, WARNING_KEYWORDS } from './warnings.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object's default.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const CONTRACT_ID = 'urn:provcert:contract';
const SCHEMA_REF_PREFIX = '#/components/schemas/';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** OpenAPI 3.1 adds these to JSON Schema; ajv must know them to stay strict about everything else. */
const OPENAPI_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Rewrite component refs to the contract's absolute id and collect x- keywords used inside schemas. */
function rewriteRefs(node: unknown, extensions: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, extensions));
  if (!isObj(node)) return node;
  const out: Obj = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF_PREFIX)) {
      out[key] = `${CONTRACT_ID}#/$defs/${value.slice(SCHEMA_REF_PREFIX.length)}`;
    } else {
      if (key.startsWith('x-')) extensions.add(key);
      out[key] = rewriteRefs(value, extensions);
    }
  }
  return out;
}

/** Follow a `$ref` to components/responses or components/requestBodies (not schemas). */
function deref(doc: Obj, node: unknown): unknown {
  if (isObj(node) && typeof node['$ref'] === 'string' && node['$ref'].startsWith('#/')) {
    let target: unknown = doc;
    for (const part of node['$ref'].slice(2).split('/')) target = isObj(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    return target;
  }
  return node;
}

function jsonSchemaOf(doc: Obj, holder: unknown): unknown {
  const content = (deref(doc, holder) as Obj | undefined)?.['content'];
  if (!isObj(content)) return undefined;
  const media = content['application/json'] ?? Object.values(content)[0];
  return isObj(media) ? media['schema'] : undefined;
}

const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

function collectOperations(doc: Obj): { info: OperationInfo; raw: Obj }[] {
  const found: { info: OperationInfo; raw: Obj }[] = [];
  const add = (key: string, method: string, path: string, op: Obj) =>
    found.push({
      raw: op,
      info: {
        key, method, path,
        ...(typeof op['operationId'] === 'string' ? { operationId: op['operationId'] } : {}),
        ...(typeof op['x-capability'] === 'string' ? { capability: op['x-capability'] } : {}),
        requiredIn: stringList(op['x-required-in']),
        profiles: stringList(op['x-profiles']),
      },
    });
  for (const [section, prefix] of [['paths', ''], ['webhooks', 'WEBHOOK ']] as const) {
    const entries = doc[section];
    if (!isObj(entries)) continue;
    for (const [name, item] of Object.entries(entries)) {
      if (!isObj(item)) continue;
      for (const method of HTTP_METHODS) {
        const op = item[method];
        if (!isObj(op)) continue;
        const key = prefix ? `${prefix}${name}` : `${method.toUpperCase()} ${name}`;
        add(key, method.toUpperCase(), name, op);
      }
    }
  }
  return found;
}

/** Compile the bundled document into a Contract. Validators compile lazily, once each. */
export function compileContract(doc: Obj, specPath: string): Result<Contract, SpecError> {
  const components = isObj(doc['components']) ? doc['components'] : {};
  const schemas = isObj(components['schemas']) ? components['schemas'] : {};
  const extensions = new Set<string>();
  const defs = rewriteRefs(schemas, extensions) as Obj;

  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictTypes: false, strictRequired: false });
  addFormats(ajv);
  ajv.addFormat(ISO_TIMESTAMP_FORMAT, { type: 'string', validate: isIsoTimestamp });
  const warnings = createWarningCollector();
  addWarningKeywords(ajv, warnings);
  const warningKeywords = new Set<string>(WARNING_KEYWORDS);
  for (const keyword of [...OPENAPI_KEYWORDS, ...extensions]) if (!warningKeywords.has(keyword)) ajv.addKeyword(keyword);
  try {
    ajv.addSchema({ $id: CONTRACT_ID, $defs: defs });
  } catch (e) {
    return err({ kind: 'bad-schema', message: `${specPath}: components/schemas cannot be compiled: ${(e as Error).message}` });
  }

  const operations = collectOperations(doc);
  const byKey = new Map(operations.map((o) => [o.info.key, o]));
  const compiled = new Map<string, ValidateFunction>();

  const compileOnce = (cacheKey: string, schema: unknown): ValidateFunction => {
    let fn = compiled.get(cacheKey);
    if (!fn) {
      const rewritten = rewriteRefs(schema, extensions);
      fn = ajv.compile(isObj(rewritten) ? rewritten : {});
      compiled.set(cacheKey, fn);
    }
    return fn;
  };
  const run = (fn: ValidateFunction, value: unknown): ValidationResult => {
    warnings.reset();
    const valid = fn(value) === true;
    return { valid, problems: valid ? [] : explainErrors(fn.errors ?? []), warnings: warnings.take() };
  };

  const pickResponse = (op: Obj, status: number): unknown => {
    const responses = isObj(op['responses']) ? op['responses'] : {};
    return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses['default'];
  };

  const version = isObj(doc['info']) && typeof doc['info']['version'] === 'string' ? doc['info']['version'] : 'unknown';

  const contract: Contract = {
    version,
    specPath,
    schemaNames: () => Object.keys(schemas).sort(),
    hasSchema: (name) => name in schemas,
    validate(name, value) {
      if (!(name in schemas)) throw new RangeError(`unknown schema "${name}"`);
      return run(compileOnce(`schema:${name}`, { $ref: `${SCHEMA_REF_PREFIX}${name}` }), value);
    },
    validateResponse(operation, status, value) {
      const op = byKey.get(operation);
      const schema = op && jsonSchemaOf(doc, pickResponse(op.raw, status));
      return schema === undefined ? undefined : run(compileOnce(`response:${operation}:${status}`, schema), value);
    },
    validateRequest(operation, value) {
      const op = byKey.get(operation);
      const schema = op && jsonSchemaOf(doc, op.raw['requestBody']);
      return schema === undefined ? undefined : run(compileOnce(`request:${operation}`, schema), value);
    },
    operations: () => operations.map((o) => o.info),
    operation: (key) => byKey.get(key)?.info,
    enumValues(name) {
      const schema = schemas[name];
      return isObj(schema) ? stringList(schema['enum']) : [];
    },
    suggestedValues(name) {
      const schema = schemas[name];
      return isObj(schema) ? stringList(schema['x-suggested-values']) : [];
    },
  };
  return ok(contract);
}
