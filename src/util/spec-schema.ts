import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './package-root.js';

/**
 * A schema of spec/ (config.schema.json …), parsed. Apart from the compiler, so what only reads a schema (the
 * option table every command declares its flags from) does not load ajv.
 */
export const specSchema = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(packageRoot, 'spec', name), 'utf8')) as Record<string, unknown>;
