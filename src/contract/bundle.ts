import { dirname, resolve } from 'node:path';
import { isRecord } from '../util/json.js';
import { err, ok, type Result } from '../util/result.js';
import type { SpecError } from './types.js';
import { readYamlFile } from './yaml-file.js';

/** Reading a spec file into one document: only `--spec` and the build need this; the bundled contract is precompiled. */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const readYaml = async (path: string): Promise<Result<Json, SpecError>> =>
  (await readYamlFile(path, 'spec file', 'YAML/JSON')) as Result<Json, SpecError>;

/** Follow a JSON pointer fragment ("/components/schemas/X") inside a document. */
function follow(doc: Json, fragment: string): Json | undefined {
  let node: Json | undefined = doc;
  for (const raw of fragment.split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isRecord(node)) node = node[key];
    else return undefined;
  }
  return node;
}

/**
 * Inline every $ref that points into another file, so the rest of the code sees one document with only
 * internal refs (a bundled spec). Refs inside the external file are resolved relative to that file.
 */
async function bundle(node: Json, baseFile: string, rootDoc: Json, depth = 0): Promise<Result<Json, SpecError>> {
  if (depth > 50) return err({ kind: 'bad-ref', message: `$ref chain too deep (cycle?) in ${baseFile}` });
  if (Array.isArray(node)) {
    const out: Json[] = [];
    for (const item of node) {
      const r = await bundle(item, baseFile, rootDoc, depth);
      if (!r.ok) return r;
      out.push(r.value);
    }
    return ok(out);
  }
  if (!isRecord(node)) return ok(node);
  const ref = node['$ref'];
  if (typeof ref === 'string' && !ref.startsWith('#')) {
    const [file = '', fragment = ''] = ref.split('#');
    const target = resolve(dirname(baseFile), file);
    const loaded = await readYaml(target);
    if (!loaded.ok) return err({ kind: 'bad-ref', message: `$ref "${ref}" in ${baseFile}: ${loaded.error.message}` });
    const picked = fragment ? follow(loaded.value, fragment) : loaded.value;
    if (picked === undefined)
      return err({ kind: 'bad-ref', message: `$ref "${ref}" in ${baseFile} points to nothing` });
    return bundle(picked, target, loaded.value, depth + 1);
  }
  if (typeof ref === 'string' && depth > 0) {
    // An internal ref of an external file: inline its target from that file.
    const picked = follow(rootDoc, ref.slice(1));
    if (picked === undefined)
      return err({ kind: 'bad-ref', message: `$ref "${ref}" in ${baseFile} points to nothing` });
    return bundle(picked, baseFile, rootDoc, depth + 1);
  }
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) {
    const r = await bundle(value, baseFile, rootDoc, depth);
    if (!r.ok) return r;
    out[key] = r.value;
  }
  return ok(out);
}

/** Read an OpenAPI 3.1 document and inline its external refs; errors are values with a message for people. */
export async function readBundledSpec(specPath: string): Promise<Result<Record<string, unknown>, SpecError>> {
  const path = resolve(specPath);
  const loaded = await readYaml(path);
  if (!loaded.ok) return loaded;
  const doc = loaded.value;
  if (!isRecord(doc) || typeof doc['openapi'] !== 'string' || !doc['openapi'].startsWith('3.1')) {
    return err({
      kind: 'not-openapi',
      message: `${path} is not an OpenAPI 3.1 document (expected "openapi: 3.1.x" at the top)`,
    });
  }
  const bundled = await bundle(doc, path, doc);
  return bundled.ok ? ok(bundled.value as Record<string, unknown>) : bundled;
}
