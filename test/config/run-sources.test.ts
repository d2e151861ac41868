import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runOptions } from '../../src/cli/options.js';
import { parseRunFlags } from '../../src/cli/run-flags.js';
import { loadRunSources } from '../../src/config/load.js';
import {
  envNameOf,
  flagNameOf,
  type OptionSchema,
  type OptionTable,
  optionTable,
  runOptionTable,
} from '../../src/config/options.js';
import type { RunConfig } from '../../src/model/run-config.js';
import { mergeRunValues, type RunSources, resolveRunConfig } from '../../src/model/run-values.js';
import { tempDir } from './support.js';

/**
 * Every option of the schema, set by every source, arrives typed and unchanged, and the order flags > environment
 * > file holds for each: the readers and the merge know no option by name. A dummy option added to a copy of the
 * schema goes the same way, so adding an option touches only the schema, its default and its use.
 */

let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  tmp = await tempDir();
});
afterEach(async () => {
  await tmp.remove();
});

type Schema = OptionTable['schema'];
type Property = OptionSchema & { enum?: unknown[]; items?: { enum?: unknown[]; $ref?: string }; examples?: unknown[] };
type Typed = string | number | boolean | string[];

const SOURCES = ['flag', 'env', 'file'] as const;
type Source = (typeof SOURCES)[number];

/** The enum a value (or a list's items) takes, canonical spellings only (aliases are read, not kept). */
function choices(schema: Schema, property: Property): string[] | undefined {
  const ref = property.items?.$ref?.split('/').pop();
  const defs = schema['$defs'] as Record<string, { enum?: unknown[] }> | undefined;
  const values = property.enum ?? property.items?.enum ?? (ref ? defs?.[ref]?.enum : undefined);
  return values?.map(String).filter((v) => v === v.toUpperCase() || !/[A-Z]/.test(v));
}

/** Three values of an option, one per source, each different from the next (so precedence shows). */
function samples(schema: Schema, key: string, kind: string): Record<Source, Typed> {
  const property = (schema.properties[key] ?? {}) as Property;
  const pick = (i: number): string => {
    const options = choices(schema, property);
    if (options && options.length > 0) return options[i % Math.min(options.length, 2)] as string;
    const base = String(property.examples?.[0] ?? (property as { default?: unknown }).default ?? key);
    return `${base}${'ABC'[i]}`;
  };
  const min = property.minimum ?? 0;
  const value = (i: number): Typed => {
    if (kind === 'integer') return min + i;
    if (kind === 'boolean') return i !== 1; // flags can only say true: true, false, true
    if (kind === 'list') return [pick(i)];
    return pick(i);
  };
  return { flag: value(0), env: value(1), file: value(2) };
}

/** A typed value written as the source writes it: commander's text, an environment variable's text, YAML. */
const asText = (value: Typed): string | true => {
  if (value === true) return true;
  return Array.isArray(value) ? value.join(',') : String(value);
};

async function readSources(
  table: OptionTable,
  key: string,
  given: Partial<Record<Source, Typed>>,
): Promise<RunSources> {
  const env: NodeJS.ProcessEnv = {};
  if (given.env !== undefined) env[envNameOf(key)] = String(asText(given.env));
  if (given.file !== undefined) await tmp.write('provcert.config.yaml', stringify({ [key]: given.file }));
  const { env: fromEnv, file } = await loadRunSources({ env, cwd: tmp.dir, table });
  const flags = given.flag !== undefined ? { [key]: asText(given.flag) } : {};
  return { flags: parseRunFlags(flags, table), env: fromEnv, file };
}

function precedenceCases(table: OptionTable): void {
  for (const [key, kind] of Object.entries(table.kinds)) {
    const values = samples(table.schema, key, kind);
    it.each([
      ['flag beats environment and file', { flag: values.flag, env: values.env, file: values.file }, values.flag],
      ['environment beats file', { env: values.env, file: values.file }, values.env],
      ['file alone', { file: values.file }, values.file],
      ['unset: left to the default', {}, undefined],
    ] as const)(`${key} (${kind}): %s`, async (_name, given, want) => {
      const merged = mergeRunValues(await readSources(table, key, given)) as Record<string, unknown>;
      expect(merged[key]).toEqual(want);
      expect(Object.keys(merged)).toEqual(want === undefined ? [] : [key]);
    });
  }
}

describe('every option of spec/config.schema.json: each source sets it, typed, in precedence order', () => {
  precedenceCases(runOptionTable());
});

/** Where each option is used: a field of the run configuration, or the cli (the secrets' sources, the reports). */
const USES: Readonly<Record<string, keyof RunConfig | 'cli'>> = {
  baseUrl: 'baseUrl',
  auth: 'authMethod',
  profile: 'profile',
  capabilities: 'capabilities',
  fulfillment: 'fulfillment',
  local: 'local',
  webhookPort: 'webhookPort',
  webhookHost: 'webhookHost',
  webhookTimeout: 'webhookTimeoutMs',
  timeout: 'timeoutMs',
  maxExpiryWait: 'maxExpiryWaitS',
  only: 'only',
  skip: 'skip',
  seed: 'seed',
  explore: 'explore',
  strict: 'strict',
  concurrency: 'concurrency',
  credentialEnv: 'cli',
  credentialFile: 'cli',
  webhookSecretEnv: 'cli',
  json: 'cli',
  junit: 'cli',
  markdown: 'cli',
  html: 'cli',
  reporter: 'cli',
};

const SECRETS = {
  credential: 'k-123456',
  credentialSource: { kind: 'env', name: 'PROVIDER_API_KEY' },
  webhookSecret: 'w-123456',
  webhookSecretSource: { kind: 'generated' },
} as const;

describe('every option has a use, and resolveRunConfig hands its typed value to the run unchanged', () => {
  const table = runOptionTable();
  it('every option of the schema is used (adding one without its use fails here)', () => {
    expect(Object.keys(table.kinds).sort()).toEqual(Object.keys(USES).sort());
  });

  const required = { baseUrl: 'https://p.example.com', auth: 'API_KEY' } as const;
  for (const [key, field] of Object.entries(USES)) {
    if (field === 'cli') continue;
    it(`${key} → RunConfig.${field}`, () => {
      const kind = table.kinds[key] ?? 'string';
      const { flag } = samples(table.schema, key, kind);
      const { config } = resolveRunConfig({ flags: { ...required, [key]: flag } }, SECRETS);
      expect(config[field]).toEqual(flag);
    });
  }

  it('unset options take DEFAULT_RUN_CONFIG, and the secrets are the ones handed in', () => {
    const run = resolveRunConfig({ flags: required }, SECRETS);
    expect(run.config).toMatchObject({ webhookPort: 8787, timeoutMs: 10_000, concurrency: 8, local: false });
    expect(run.config.credentialSource).toEqual(SECRETS.credentialSource);
    expect([run.credential, run.webhookSecret]).toEqual([SECRETS.credential, SECRETS.webhookSecret]);
  });
});

const DUMMY_SCHEMA: Schema = {
  ...runOptionTable().schema,
  properties: {
    ...runOptionTable().schema.properties,
    dummyRetries: { description: 'A dummy option: retries of something.', type: 'integer', minimum: 2, maximum: 9 },
    dummyTags: {
      description: 'A dummy list option.',
      type: ['array', 'string'],
      items: { type: 'string' },
    } as Property,
  },
};

describe('a dummy option added to the schema only: read from every source with no code to change', () => {
  const table = optionTable(DUMMY_SCHEMA);

  it('is a kind the readers know, from its schema', () => {
    expect(table.kinds['dummyRetries']).toBe('integer');
    expect(table.kinds['dummyTags']).toBe('list');
  });

  it('is a flag of `provcert run`, described by the schema, and its text arrives typed', () => {
    const command = runOptions(new Command('run'), table);
    expect(command.options.map((o) => o.long)).toContain(flagNameOf('dummyRetries'));
    command.parse(['--dummy-retries', '4', '--dummy-tags', 'a, b'], { from: 'user' });
    expect(parseRunFlags(command.opts(), table)).toMatchObject({ dummyRetries: 4, dummyTags: ['a', 'b'] });
  });

  it('is checked against its schema bounds in every source, named as each source names it', async () => {
    expect(() => parseRunFlags({ dummyRetries: '1' }, table)).toThrow(
      '--dummy-retries must be a whole number from 2 to 9 (got "1")',
    );
    await expect(readSources(table, 'dummyRetries', { env: 10 })).rejects.toThrow(
      'environment variable PROVCERT_DUMMY_RETRIES must be at most 9',
    );
    await expect(readSources(table, 'dummyRetries', { file: 1 })).rejects.toThrow(
      'provcert.config.yaml:1: /dummyRetries must be at least 2',
    );
  });

  precedenceCases({ ...table, kinds: { dummyRetries: 'integer', dummyTags: 'list' } });
});
