import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RUN_CONFIG } from '../../src/model/run-config.js';

describe('DEFAULT_RUN_CONFIG', () => {
  it('holds the defaults spec/config.schema.json documents, under the same names', async () => {
    const schema = JSON.parse(await readFile(join(import.meta.dirname, '../../spec/config.schema.json'), 'utf8')) as {
      properties: Record<string, { default?: unknown }>;
    };
    const documented = Object.keys(DEFAULT_RUN_CONFIG).filter((key) => key !== 'maxBodyBytes');
    expect(documented.length).toBeGreaterThan(5);
    for (const key of documented) {
      const field = key as keyof typeof DEFAULT_RUN_CONFIG;
      expect(schema.properties[key]?.default, `config.schema.json ${key}`).toEqual(DEFAULT_RUN_CONFIG[field]);
    }
  });
});
