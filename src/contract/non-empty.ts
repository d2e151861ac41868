import { isRecord } from '../util/json.js';

/**
 * A required string of a provider's answer must carry a value (docs/decisions.md: "Every required string is
 * non-empty"): an empty or blank id cannot identify, an empty title or name cannot be shown. The spec states no
 * minLength (the contract's tables say only "string | yes"), so provcert adds this keyword to every required
 * string property of the payloads the provider routes answer with success (the contract's "Required response
 * fields"), not to error bodies, webhook events or the core's own payloads. A component those answers name (QuoteItem,
 * in certificationInput) carries it wherever it is used; provcert never validates its own requests to a provider.
 */
export const NON_EMPTY_KEYWORD = 'x-provcert-non-empty';

type Obj = Record<string, unknown>;
const SCHEMA_REF_PREFIX = '#/components/schemas/';
/** Keywords that already keep a string from being empty or name its values: the keyword adds nothing there. */
const SELF_LIMITING = ['enum', 'const', 'format'];

const componentOf = (ref: unknown): string | undefined =>
  typeof ref === 'string' && ref.startsWith(SCHEMA_REF_PREFIX) ? ref.slice(SCHEMA_REF_PREFIX.length) : undefined;

/** Every component schema named by a `$ref` anywhere under `node`. */
function collectRefs(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) for (const n of node) collectRefs(n, into);
  else if (isRecord(node))
    for (const [key, value] of Object.entries(node)) {
      const name = key === '$ref' ? componentOf(value) : undefined;
      if (name !== undefined) into.add(name);
      else collectRefs(value, into);
    }
}

/** Follow a `$ref` to components/responses (a response written once, used by many operations). */
function derefResponse(doc: Obj, node: unknown): unknown {
  if (!isRecord(node) || typeof node['$ref'] !== 'string' || !node['$ref'].startsWith('#/')) return node;
  let target: unknown = doc;
  for (const part of node['$ref'].slice(2).split('/')) target = isRecord(target) ? target[part] : undefined;
  return target;
}

/**
 * The component schemas a provider answers with success: those the 2XX responses of the operations tagged
 * `provider` name, and everything they name in turn.
 */
export function providerAnswerSchemas(doc: Obj, schemas: Obj): Set<string> {
  const roots = new Set<string>();
  for (const item of Object.values(isRecord(doc['paths']) ? doc['paths'] : {})) {
    if (!isRecord(item)) continue;
    for (const op of Object.values(item)) {
      if (!isRecord(op) || !Array.isArray(op['tags']) || !op['tags'].includes('provider')) continue;
      const responses = isRecord(op['responses']) ? op['responses'] : {};
      for (const [status, response] of Object.entries(responses))
        if (/^2(\d\d|XX)$/.test(status)) collectRefs(derefResponse(doc, response), roots);
    }
  }
  const reached = new Set<string>();
  const queue = [...roots];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (reached.has(name) || !Object.hasOwn(schemas, name)) continue;
    reached.add(name);
    const found = new Set<string>();
    collectRefs(schemas[name], found);
    queue.push(...found);
  }
  return reached;
}

/** Whether a property schema is a plain string (itself, or the component it names) the keyword should guard. */
function isPlainString(property: unknown, schemas: Obj): boolean {
  if (!isRecord(property)) return false;
  const name = componentOf(property['$ref']);
  const target = name === undefined ? property : schemas[name];
  return isRecord(target) && target['type'] === 'string' && !SELF_LIMITING.some((k) => k in target);
}

/** A copy of `node` (a schema) whose required plain-string properties, at any depth, carry the keyword. */
function markRequiredStrings(node: unknown, schemas: Obj): unknown {
  if (Array.isArray(node)) return node.map((n) => markRequiredStrings(n, schemas));
  if (!isRecord(node)) return node;
  const out: Obj = {};
  for (const [key, value] of Object.entries(node)) out[key] = markRequiredStrings(value, schemas);
  const properties = out['properties'];
  if (!isRecord(properties) || !Array.isArray(node['required'])) return out;
  const marked: Obj = { ...properties };
  for (const field of node['required'])
    if (typeof field === 'string' && Object.hasOwn(marked, field) && isPlainString(marked[field], schemas))
      marked[field] = { ...(marked[field] as Obj), [NON_EMPTY_KEYWORD]: true };
  out['properties'] = marked;
  return out;
}

/**
 * The component schemas with the non-empty keyword on every required plain string of the provider's success
 * answers (providerAnswerSchemas); the other schemas are returned as they are.
 */
export function withNonEmptyRequiredStrings(doc: Obj, schemas: Obj): Obj {
  const answers = providerAnswerSchemas(doc, schemas);
  const out: Obj = {};
  for (const [name, schema] of Object.entries(schemas))
    out[name] = answers.has(name) ? markRequiredStrings(schema, schemas) : schema;
  return out;
}
