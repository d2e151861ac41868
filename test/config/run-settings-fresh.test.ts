import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OptionTable } from '../../src/config/options.js';
import { generateRunSettingsModule, RUN_SETTINGS_MODULE } from '../../src/config/run-settings-type.js';
import { CHECK_IDS } from '../../src/model/check-ids.js';
import { AUTH_METHODS, PROFILES } from '../../src/model/contract-constants.js';
import type { RunSettings } from '../../src/model/generated/run-settings.js';
import { packageRoot } from '../../src/util/package-root.js';
import { specSchema } from '../../src/util/spec-schema.js';

const schema = specSchema('config.schema.json') as OptionTable['schema'];

describe('the run settings module is generated from spec/config.schema.json', () => {
  it('the committed module is what the schema generates now', () => {
    const committed = readFileSync(join(packageRoot, RUN_SETTINGS_MODULE), 'utf8');
    expect(
      committed === generateRunSettingsModule(schema),
      `${RUN_SETTINGS_MODULE} is not what spec/config.schema.json generates: run \`npm run build\` and commit it`,
    ).toBe(true);
  });

  it('a named set is typed by its names, its aliases settled (auth, profile, check ids)', () => {
    type Names<K extends keyof RunSettings> = NonNullable<RunSettings[K]>;
    const auth: readonly Names<'auth'>[] = AUTH_METHODS;
    const profiles: readonly Names<'profile'>[] = PROFILES;
    const checks: readonly Names<'only'>[number][] = CHECK_IDS;
    const module = generateRunSettingsModule(schema);
    expect(module).toContain(`auth?: ${auth.map((m) => `'${m}'`).join(' | ')};`);
    expect(module).toContain(`profile?: ${profiles.map((p) => `'${p}'`).join(' | ')};`);
    expect(module).toContain(`only?: (${checks.map((c) => `'${c}'`).join(' | ')})[];`);
  });

  it('a config-file-only key is no run setting', () => {
    const module = generateRunSettingsModule(schema);
    expect(module).not.toContain('expectedFailures');
    expect(module).not.toContain('allowPathsOutsideConfigDir');
  });
});
