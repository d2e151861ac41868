import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
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
import { generateRunSettingsModule, runSettingValues } from '../../src/config/run-settings-type.js';
import type { CertifyOptions } from '../../src/lib/certify.js';
import { RUN_SETTING_KEYS } from '../../src/model/generated/run-settings.js';
import type { RunReport } from '../../src/model/report.js';
import { FRONT_END_SETTINGS } from '../../src/model/run-config.js';
import { recordRunInputs } from '../../src/model/run-inputs.js';
import { mergeRunValues, type RunSources, resolveRunConfig } from '../../src/model/run-values.js';
import { tempDir } from './support.js';

/**
 * Every option of the schema, set by every source, arrives typed and unchanged, and the order flags > environment
 * > file holds for each: the readers and the merge know no option by name. A dummy option added to a copy of the
 * schema goes the same way — a flag, a PROVCERT_* variable, a config key, a field of the generated type, an option
 * of certify(), a report input, replayed — so adding an option touches only the schema and its use.
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

const SECRETS = {
  credential: 'k-123456',
  credentialSource: { kind: 'env', name: 'PROVIDER_API_KEY' },
  webhookSecret: 'w-123456',
  webhookSecretSource: { kind: 'generated' },
} as const;

describe('every option keeps its one name: the run configuration and the report inputs use it unchanged', () => {
  const table = runOptionTable();
  const frontEnd: readonly string[] = FRONT_END_SETTINGS;
  const required = { baseUrl: 'https://p.example.com', auth: 'API_KEY' } as const;

  it('the generated run settings are the schema options, and only the front ends keep some to themselves', () => {
    expect([...RUN_SETTING_KEYS]).toEqual(Object.keys(table.kinds));
    expect(frontEnd.every((key) => key in table.kinds)).toBe(true);
  });

  for (const key of Object.keys(table.kinds)) {
    const kind = table.kinds[key] ?? 'string';
    const { flag } = samples(table.schema, key, kind);
    if (frontEnd.includes(key)) {
      it(`${key}: the front end's own (secrets' source, reports), never the run's`, () => {
        const { config } = resolveRunConfig({ ...required, [key]: flag }, SECRETS);
        expect(config).not.toHaveProperty(key);
      });
      continue;
    }
    it(`${key} → RunConfig.${key} → the report's inputs.${key}`, () => {
      const { config } = resolveRunConfig({ ...required, [key]: flag }, SECRETS);
      expect((config as unknown as Record<string, unknown>)[key]).toEqual(flag);
      expect((recordRunInputs(config, 'r') as Record<string, unknown>)[key]).toEqual(flag);
    });
  }

  it('unset options take the schema defaults, and the secrets are the ones handed in', () => {
    const run = resolveRunConfig(required, SECRETS);
    expect(run.config).toMatchObject({ webhookPort: 8787, timeout: 10_000, concurrency: 8, local: false });
    expect(run.config.credentialSource).toEqual(SECRETS.credentialSource);
    expect([run.credential, run.webhookSecret]).toEqual([SECRETS.credential, SECRETS.webhookSecret]);
  });
});

const DUMMY_SCHEMA: Schema = {
  ...runOptionTable().schema,
  properties: {
    ...runOptionTable().schema.properties,
    dummyRetries: {
      description: 'A dummy option: retries of something.',
      type: 'integer',
      minimum: 2,
      maximum: 9,
      default: 3,
    } as Property,
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

  it('is a field of the generated RunSettings type, a run setting and its default', () => {
    const module = generateRunSettingsModule(DUMMY_SCHEMA);
    expect(module).toContain('  dummyRetries?: number;\n');
    expect(module).toContain('  dummyTags?: string[];\n');
    expect(module).toMatch(/RUN_SETTING_KEYS = \[[^\]]*'dummyRetries',\n {2}'dummyTags',\n\]/);
    expect(module).toMatch(/RUN_SETTING_DEFAULTS = \{[^}]* {2}dummyRetries: 3,\n/);
  });

  describe('built from that schema (the generated module as the build writes it)', () => {
    beforeAll(() => {
      const { keys, defaults } = runSettingValues(DUMMY_SCHEMA);
      vi.resetModules();
      vi.doMock('../../src/model/generated/run-settings.js', () => ({
        RUN_SETTING_KEYS: keys,
        RUN_SETTING_DEFAULTS: defaults,
      }));
    });
    afterAll(() => {
      vi.doUnmock('../../src/model/generated/run-settings.js');
      vi.resetModules();
    });

    const secrets = { credential: 'k-123456', webhookSecret: 'w-123456' };
    const given = { baseUrl: 'https://p.example.com', auth: 'API_KEY', ...secrets } as const;

    it("is an option of the library's certify(), reaching the run and the report's inputs under its name", async () => {
      const { resolveCertifyOptions } = await import('../../src/lib/certify.js');
      const { recordRunInputs: record } = await import('../../src/model/run-inputs.js');
      const { config } = resolveCertifyOptions({ ...given, dummyRetries: 5 } as CertifyOptions);
      expect(config).toMatchObject({ dummyRetries: 5 });
      expect(record(config, 'r')).toMatchObject({ dummyRetries: 5, dummyTags: null });
      // Unset: the schema's default, recorded as the run used it.
      const unset = resolveCertifyOptions(given).config;
      expect(record(unset, 'r')).toMatchObject({ dummyRetries: 3 });
    });

    it('is replayed from a report as it was recorded, checked as its flag is', async () => {
      const { planReplay: plan } = await import('../../src/cli/replay-plan.js');
      const { parseRunFlags: parse } = await import('../../src/cli/run-flags.js');
      const report = {
        checks: [{ id: 'metadata', status: 'fail' }],
        verdict: 'FAIL',
        provider: { baseUrl: 'https://p.example.com', authMethod: 'API_KEY' },
        inputs: { dummyRetries: 7, dummyTags: ['x'] },
      } as unknown as RunReport;
      const replayed = plan(report);
      expect(replayed).toMatchObject({ flags: { dummyRetries: 7, dummyTags: ['x'] } });
      if ('error' in replayed) throw new Error(replayed.error);
      expect(parse(replayed.flags, table)).toMatchObject({ dummyRetries: 7, dummyTags: ['x'] });
    });
  });
});
