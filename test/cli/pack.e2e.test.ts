import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../support/scratch.js';
import {
  installInFreshProject,
  type PackedTarball,
  packProvcert,
  repo,
  runCommand,
  writeJson,
} from './packed-provcert.js';

// What the installed CLI needs at run time (compiled CLI, the reference provider behind demo and mock-provider, the
// spec files it reads from the package root) and what a provider developer reads (docs, example payloads).
const SHIPPED = [
  /^package\.json$/,
  /^(README|CHANGELOG)\.md$/,
  /^LICENSE/,
  /^bin\/provcert\.js$/,
  /^dist\/src\/.+\.(js|d\.ts)$/,
  /^spec\//,
  /^docs\/.+\.md$/,
  /^fixtures\/payloads\/[^/]+\/valid-[^/]+\.json$/,
];

describe('provcert installed from its npm pack tarball in a fresh project', () => {
  let work = '';
  let project = '';
  let packed: PackedTarball;

  beforeAll(async () => {
    work = await scratchDir('pack');
    packed = await packProvcert(work);
    project = join(work, 'provider-repo');
    await installInFreshProject(project, packed.path);
  }, 240_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('packs the runtime and nothing of the tests, sources or benchmarks, and leaves no tarball in the checkout', () => {
    expect(packed.files.filter((f) => !SHIPPED.some((pattern) => pattern.test(f)))).toEqual([]);
    for (const needed of [
      'bin/provcert.js',
      'dist/src/cli/main.js',
      'dist/src/reference-provider/index.js',
      'dist/src/lib/index.js',
      'dist/src/lib/index.d.ts',
      'dist/src/contract/generated/contract-types.d.ts',
      'spec/openapi.yaml',
      'spec/requirements.yaml',
      'spec/requirements.schema.json',
      'spec/config.schema.json',
      'README.md',
    ]) {
      expect(packed.files).toContain(needed);
    }
    expect(existsSync(join(repo, packed.filename))).toBe(false);
  });

  it('npx provcert --version prints the packed version', async () => {
    const { version } = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as { version: string };
    const r = await runCommand('npx', ['provcert', '--version'], project);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(version);
  }, 60_000);

  it('npx provcert validate reads the packaged spec: a valid payload exits 0, an invalid one 1 with the reason', async () => {
    const offering = {
      id: 'off_tiramisu',
      providerId: 'prov_pizzaroma',
      offeringCode: 'DS-TIRA',
      title: 'Tiramisu',
      basePrice: 500,
    };
    await writeJson(join(project, 'offering.json'), offering);
    await writeJson(join(project, 'bad-offering.json'), { ...offering, basePrice: '5.00' });

    const valid = await runCommand('npx', ['provcert', 'validate', 'Offering', 'offering.json'], project);
    expect(valid.code, valid.stderr).toBe(0);
    expect(valid.stdout).toMatch(/^valid Offering: offering\.json/m);

    const invalid = await runCommand('npx', ['provcert', 'validate', 'Offering', 'bad-offering.json'], project);
    expect(invalid.code, invalid.stderr).toBe(1);
    expect(invalid.stdout + invalid.stderr).toMatch(/\/basePrice must be integer/);
  }, 60_000);

  it('npx provcert demo certifies the packaged reference provider against the packaged core: exit 0, PASS', async () => {
    const r = await runCommand('npx', ['provcert', 'demo'], project);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^PASS {2}\d+ passed, 0 failed/m);
  }, 120_000);
});
