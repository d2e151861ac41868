import { isRecord } from '../util/json.js';
import { withNonEmptyRequiredStrings } from './non-empty.js';
import { pinnedFields } from './pinned.js';
import type { OperationInfo, QueryParameter } from './types.js';

/**
 * What a Contract needs from the bundled OpenAPI document, as plain JSON: names, enums, operations and,
 * for every schema, response and request body, the id of the validator that checks it. The run-time path
 * derives it from the parsed spec; the build writes it into the generated module, so the bundled contract
 * needs no YAML at run time.
 */
export interface ContractData {
  version: string;
  /** Component schema names in spec order → validator id. */
  schemas: Record<string, string>;
  /** Values of the enum schemas (only those with an enum). */
  enums: Record<string, string[]>;
  /** x-suggested-values of the schemas that carry them. */
  suggested: Record<string, string[]>;
  operations: OperationInfo[];
  /** Operation key → declared response ("200", "4XX", "default") → validator id, or false when it has no JSON body. */
  responses: Record<string, Record<string, string | false>>;
  /** Operation key → validator id of its request body (only operations with a JSON body). */
  requests: Record<string, string>;
}

export interface ContractModel {
  data: ContractData;
  /** The component schemas with refs rewritten to CONTRACT_ID, added to ajv as one document. */
  defs: Record<string, unknown>;
  /** Validator id → the JSON Schema it compiles (refs rewritten). */
  validatorSchemas: Map<string, Record<string, unknown>>;
  /** x- keywords used inside schemas; ajv must know them to stay strict. */
  extensions: Set<string>;
}

/** The id under which the component schemas are added to ajv. */
export const CONTRACT_ID = 'urn:provcert:contract';
const SCHEMA_REF_PREFIX = '#/components/schemas/';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Obj = Record<string, unknown>;
const stringList = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** Rewrite component refs to the contract's absolute id and collect x- keywords used inside schemas. */
function rewriteRefs(node: unknown, extensions: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, extensions));
  if (!isRecord(node)) return node;
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
  if (isRecord(node) && typeof node['$ref'] === 'string' && node['$ref'].startsWith('#/')) {
    let target: unknown = doc;
    for (const part of node['$ref'].slice(2).split('/'))
      target = isRecord(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    return target;
  }
  return node;
}

function jsonSchemaOf(doc: Obj, holder: unknown): unknown {
  const content = (deref(doc, holder) as Obj | undefined)?.['content'];
  if (!isRecord(content)) return undefined;
  const media = content['application/json'] ?? Object.values(content)[0];
  return isRecord(media) ? media['schema'] : undefined;
}

/** Names of the security schemes of one requirement list (`security: [{ A: [] }, { B: [] }]`). */
const schemeNames = (security: unknown): string[] =>
  Array.isArray(security) ? security.flatMap((s) => (isRecord(s) ? Object.keys(s) : [])) : [];

/** The query parameters of an operation's `parameters` (each may be a `$ref` to components/parameters). */
function queryParameters(doc: Obj, parameters: unknown): QueryParameter[] {
  if (!Array.isArray(parameters)) return [];
  return parameters.flatMap((raw): QueryParameter[] => {
    const p = deref(doc, raw);
    if (!isRecord(p) || p['in'] !== 'query' || typeof p['name'] !== 'string') return [];
    const type = isRecord(p['schema']) && typeof p['schema']['type'] === 'string' ? p['schema']['type'] : undefined;
    return [{ name: p['name'], required: p['required'] === true, ...(type ? { type } : {}) }];
  });
}

function collectOperations(doc: Obj): { info: OperationInfo; raw: Obj }[] {
  const found: { info: OperationInfo; raw: Obj }[] = [];
  for (const [section, prefix] of [
    ['paths', ''],
    ['webhooks', 'WEBHOOK '],
  ] as const) {
    const entries = doc[section];
    if (!isRecord(entries)) continue;
    for (const [name, item] of Object.entries(entries)) {
      if (!isRecord(item)) continue;
      for (const method of HTTP_METHODS) {
        const op = item[method];
        if (!isRecord(op)) continue;
        const info: OperationInfo = {
          key: prefix ? `${prefix}${name}` : `${method.toUpperCase()} ${name}`,
          method: method.toUpperCase(),
          path: name,
          ...(typeof op['operationId'] === 'string' ? { operationId: op['operationId'] } : {}),
          ...(typeof op['x-capability'] === 'string' ? { capability: op['x-capability'] } : {}),
          requiredIn: stringList(op['x-required-in']),
          profiles: stringList(op['x-profiles']),
          requestBody: jsonSchemaOf(doc, op['requestBody']) !== undefined,
          security: schemeNames(op['security'] ?? doc['security']),
          pinned: pinnedFields(doc, jsonSchemaOf(doc, op['requestBody'])),
          query: queryParameters(doc, op['parameters']),
        };
        found.push({ info, raw: op });
      }
    }
  }
  return found;
}

/** Read the contract's data and the schemas to compile out of a bundled OpenAPI 3.1 document. */
export function buildContractModel(doc: Obj): ContractModel {
  const components = isRecord(doc['components']) ? doc['components'] : {};
  const schemas = isRecord(components['schemas']) ? components['schemas'] : {};
  const extensions = new Set<string>();
  // The provider's success answers get provcert's non-empty rule on their required strings (non-empty.ts).
  const defs = rewriteRefs(withNonEmptyRequiredStrings(doc, schemas), extensions) as Obj;

  // Identical schemas share one validator: most responses are a $ref to a component schema.
  const validatorSchemas = new Map<string, Obj>();
  const idBySchema = new Map<string, string>();
  let inlineCount = 0;
  const validatorFor = (schema: unknown, preferredId: () => string): string => {
    const rewritten = rewriteRefs(schema, extensions);
    const compiled = isRecord(rewritten) ? rewritten : {};
    const json = JSON.stringify(compiled);
    let id = idBySchema.get(json);
    if (id === undefined) {
      id = preferredId();
      while (validatorSchemas.has(id)) id = `${id}_`;
      idBySchema.set(json, id);
      validatorSchemas.set(id, compiled);
    }
    return id;
  };

  const data: ContractData = {
    version: isRecord(doc['info']) && typeof doc['info']['version'] === 'string' ? doc['info']['version'] : 'unknown',
    schemas: {},
    enums: {},
    suggested: {},
    operations: [],
    responses: {},
    requests: {},
  };
  for (const [name, schema] of Object.entries(schemas)) {
    data.schemas[name] = validatorFor(
      { $ref: `${SCHEMA_REF_PREFIX}${name}` },
      () => `schema_${name.replace(/[^A-Za-z0-9_$]/g, '_')}`,
    );
    const values = isRecord(schema) ? stringList(schema['enum']) : [];
    if (values.length > 0) data.enums[name] = values;
    const suggested = isRecord(schema) ? stringList(schema['x-suggested-values']) : [];
    if (suggested.length > 0) data.suggested[name] = suggested;
  }
  const inline = () => `inline_${inlineCount++}`;
  for (const { info, raw } of collectOperations(doc)) {
    data.operations.push(info);
    const declared: Record<string, string | false> = {};
    for (const [status, response] of Object.entries(isRecord(raw['responses']) ? raw['responses'] : {})) {
      // A response written as `null` counts as not declared, as the run-time lookup always did (`??`).
      if (response === null || response === undefined) continue;
      const schema = jsonSchemaOf(doc, response);
      declared[status] = schema === undefined ? false : validatorFor(schema, inline);
    }
    if (Object.keys(declared).length > 0) data.responses[info.key] = declared;
    const requestSchema = jsonSchemaOf(doc, raw['requestBody']);
    if (requestSchema !== undefined) data.requests[info.key] = validatorFor(requestSchema, inline);
  }
  return { data, defs, validatorSchemas, extensions };
}
