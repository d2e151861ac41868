import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RUN_CONFIG } from '../../src/model/run-config.js';

/** Each config key of spec/config.schema.json beside the run configuration field it sets. */
const SCHEMA_KEY: Record<string, keyof typeof DEFAULT_RUN_CONFIG> = {
  local: 'local',
  webhookHost: 'webhookHost',
  webhookPort: 'webhookPort',
  webhookTimeout: 'webhookTimeoutMs',
  timeout: 'timeoutMs',
  maxExpiryWait: 'maxExpiryWaitS',
  concurrency: 'concurrency',
  strict: 'strict',
};

describe('DEFAULT_RUN_CONFIG', () => {
  it('holds the defaults spec/config.schema.json documents, one by one', async () => {
    const schema = JSON.parse(await readFile(join(import.meta.dirname, '../../spec/config.schema.json'), 'utf8')) as {
      properties: Record<string, { default?: unknown }>;
    };
    for (const [key, field] of Object.entries(SCHEMA_KEY)) {
      expect(schema.properties[key]?.default, `config.schema.json ${key}`).toEqual(DEFAULT_RUN_CONFIG[field]);
    }
  });
});
