import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runOptions } from '../../src/cli/options.js';
import { resolveRunOptions } from '../../src/cli/run-options.js';
import { envNameOf, flagNameOf, OPTION_KEYS } from '../../src/config/options.js';
import { configSchema } from '../../src/config/schema.js';
import { CHECK_IDS } from '../../src/model/check-ids.js';
import { FILE_REPORTER_NAMES, REPORTER_NAMES, REPORTERS } from '../../src/report/reporters.js';
import { packageRoot } from '../../src/util/package-root.js';

interface Prop {
  default?: unknown;
  enum?: unknown[];
  examples?: unknown[];
  items?: { enum?: unknown[]; $ref?: string };
}
const props = (): Record<string, Prop> => configSchema().properties as Record<string, Prop>;

describe('spec/config.schema.json stays in step with the code', () => {
  it('describes exactly the run options and report flags, and expectedFailures (config file only)', () => {
    expect(Object.keys(props()).sort()).toEqual(
      [...OPTION_KEYS, 'expectedFailures', 'allowPathsOutsideConfigDir'].sort(),
    );
  });

  it('every key is a flag of `provcert run`', () => {
    const flags = runOptions(new Command('run')).options.map((o) => o.long);
    for (const key of OPTION_KEYS) expect(flags).toContain(flagNameOf(key));
  });

  it('names environment variables PROVCERT_<UPPER_SNAKE>', () => {
    expect(envNameOf('baseUrl')).toBe('PROVCERT_BASE_URL');
    expect(envNameOf('maxExpiryWait')).toBe('PROVCERT_MAX_EXPIRY_WAIT');
    expect(envNameOf('json')).toBe('PROVCERT_JSON');
  });

  it("reporter names and default report files are the reporter table's", () => {
    expect(props()['reporter']?.items?.enum).toEqual(REPORTER_NAMES);
    for (const name of FILE_REPORTER_NAMES)
      expect(props()[name]?.examples, name).toEqual([REPORTERS[name].defaultFile]);
  });

  it('check ids are the stable ids', () => {
    const defs = (configSchema()['$defs'] as { checkId: { enum: string[] } }).checkId.enum;
    expect(defs).toEqual([...CHECK_IDS]);
  });

  it("capability names are the contract spec's", async () => {
    const spec = parse(await readFile(join(packageRoot, 'spec', 'openapi.yaml'), 'utf8')) as {
      components: { schemas: { Capability: { enum: string[] } } };
    };
    expect(props()['capabilities']?.items?.enum).toEqual(spec.components.schemas.Capability.enum);
  });

  it('documented defaults are the ones resolveRunOptions applies', () => {
    const { config } = resolveRunOptions(
      { baseUrl: 'https://p.example.com', auth: 'API_KEY' },
      { PROVIDER_API_KEY: 'k-123456' },
      '/',
    );
    const p = props();
    expect(p['webhookPort']?.default).toBe(config.webhookPort);
    expect(p['webhookHost']?.default).toBe(config.webhookHost);
    expect(p['webhookTimeout']?.default).toBe(config.webhookTimeout);
    expect(p['timeout']?.default).toBe(config.timeout);
    expect(p['maxExpiryWait']?.default).toBe(config.maxExpiryWait);
    expect(p['concurrency']?.default).toBe(config.concurrency);
    expect(p['local']?.default).toBe(config.local);
    expect(p['credentialEnv']?.default).toBe(
      config.credentialSource.kind === 'env' ? config.credentialSource.name : undefined,
    );
  });
});
