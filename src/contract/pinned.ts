import { isRecord } from '../util/json.js';
import type { PinnedField } from './types.js';

type Obj = Record<string, unknown>;
const SCHEMA_REF_PREFIX = '#/components/schemas/';
/** Request bodies are a few levels deep; a deeper (or cyclic) schema is not walked further. */
const MAX_DEPTH = 6;

function resolve(doc: Obj, node: unknown): Obj | undefined {
  if (!isRecord(node)) return undefined;
  const ref = node['$ref'];
  if (typeof ref !== 'string' || !ref.startsWith(SCHEMA_REF_PREFIX)) return node;
  const components = isRecord(doc['components']) ? doc['components'] : {};
  const schemas = isRecord(components['schemas']) ? components['schemas'] : {};
  const target = schemas[ref.slice(SCHEMA_REF_PREFIX.length)];
  return isRecord(target) ? target : undefined;
}

/** The one value a schema allows (`const`, or an `enum` of one scalar), or undefined. */
function pinnedValue(schema: Obj): { value: PinnedField['value'] } | undefined {
  const isScalar = (v: unknown): v is PinnedField['value'] =>
    v === null || ['string', 'number', 'boolean'].includes(typeof v);
  if (Object.hasOwn(schema, 'const') && isScalar(schema['const'])) return { value: schema['const'] };
  const values = schema['enum'];
  if (Array.isArray(values) && values.length === 1 && isScalar(values[0])) return { value: values[0] };
  return undefined;
}

/**
 * Every field of a request body schema pinned to one value, through object properties and component refs (arrays
 * are not entered: an item's field has no single path).
 */
export function pinnedFields(doc: Obj, schema: unknown, path: string[] = [], depth = 0): PinnedField[] {
  const node = resolve(doc, schema);
  if (!node || depth > MAX_DEPTH) return [];
  const properties = isRecord(node['properties']) ? node['properties'] : {};
  const required = Array.isArray(node['required']) ? node['required'] : [];
  return Object.entries(properties).flatMap(([name, property]) => {
    const resolved = resolve(doc, property);
    if (!resolved) return [];
    const pinned = pinnedValue(resolved);
    if (pinned) return [{ path: [...path, name], value: pinned.value, required: required.includes(name) }];
    return pinnedFields(doc, resolved, [...path, name], depth + 1);
  });
}
