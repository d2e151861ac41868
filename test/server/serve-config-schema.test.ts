import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveServeSettings } from '../../src/config/serve.js';
import { LIMIT_NAMES } from '../../src/server/limits.js';
import { specSchema } from '../../src/util/spec-schema.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provcert-serve-config-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("serve's --config is validated by spec/serve-config.schema.json", () => {
  it('describes every ingestion limit by name', () => {
    const properties = Object.keys(specSchema('serve-config.schema.json')['properties'] as object);
    for (const name of LIMIT_NAMES) expect(properties).toContain(name);
  });

  it.each([
    ['a port that is not a number', 'port: abc\n', 'port must be integer'],
    ['an unknown setting', 'token: s3cr3t-value\n', 'unknown setting token'],
    ['a bad provider slug', 'providers:\n  - slug: Bad Slug\n', 'providers.0.slug must be a provider slug'],
    ['a limit below 1', 'maxBodyBytes: 0\n', 'maxBodyBytes must be >= 1'],
    ['a list instead of settings', '- a\n', 'must hold a mapping of settings'],
  ])('refuses %s in one line naming the file', async (_name, yaml, says) => {
    const path = join(dir, 'serve.yaml');
    await writeFile(path, yaml);
    const error = await resolveServeSettings({ config: path }, dir).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain(`--config ${path}: `);
    expect(error?.message).toContain(says);
    expect(error?.message).not.toContain('s3cr3t-value');
  });

  it('takes a valid file', async () => {
    const path = join(dir, 'ok.yaml');
    await writeFile(path, 'port: 0\nlocal: true\nproviders:\n  - slug: north-kitchen\n');
    const settings = await resolveServeSettings({ config: path }, dir);
    expect(settings.providers).toEqual([{ slug: 'north-kitchen' }]);
    expect(settings.local).toBe(true);
  });
});
