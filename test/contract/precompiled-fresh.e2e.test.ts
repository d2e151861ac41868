import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BUNDLED_SPEC_PATH } from '../../src/contract/bundled-path.js';
import { GENERATED_DIR, GENERATED_DTS, GENERATED_JS, generateValidatorModule } from '../../src/contract/generate.js';
import { GENERATED_TYPES, generateContractTypes } from '../../src/contract/generate-types.js';
import { specSha256 } from '../../src/contract/generated/contract-validators.js';
import { loadPrecompiledContract, precompiledContract } from '../../src/contract/precompiled.js';
import { sha256 } from '../../src/contract/spec-hash.js';
import { scratchDir } from '../support/scratch.js';

const ROOT = join(import.meta.dirname, '../..');
const SOURCE_DIR = join(ROOT, 'src/contract', GENERATED_DIR);
const DIST_DIR = join(ROOT, 'dist/src/contract', GENERATED_DIR);
const STALE = 'is not what spec/openapi.yaml generates: run `npm run build` (and commit src/contract/generated/)';

const generated = await generateValidatorModule(BUNDLED_SPEC_PATH);
if (!generated.ok) throw new Error(generated.error.message);
const { js, dts } = generated.value;
const types = await generateContractTypes(BUNDLED_SPEC_PATH);

/** Equal or not, without printing half a megabyte of diff. */
const sameText = (path: string, expected: string): boolean =>
  existsSync(path) && readFileSync(path, 'utf8') === expected;

describe('generated validators are current with the spec', () => {
  it('the committed module is what the spec generates now', () => {
    expect(sameText(join(SOURCE_DIR, GENERATED_JS), js), `src/contract/generated/${GENERATED_JS} ${STALE}`).toBe(true);
    expect(sameText(join(SOURCE_DIR, GENERATED_DTS), dts), `src/contract/generated/${GENERATED_DTS} ${STALE}`).toBe(
      true,
    );
    expect(
      sameText(join(SOURCE_DIR, GENERATED_TYPES), types),
      `src/contract/generated/${GENERATED_TYPES} ${STALE}`,
    ).toBe(true);
  });

  it('the build output is what the spec generates now', () => {
    expect(sameText(join(DIST_DIR, GENERATED_JS), js), `dist/src/contract/generated/${GENERATED_JS} ${STALE}`).toBe(
      true,
    );
    expect(
      sameText(join(DIST_DIR, GENERATED_TYPES), types),
      `dist/src/contract/generated/${GENERATED_TYPES} ${STALE}`,
    ).toBe(true);
  });

  it('provcert/types exports every schema the validators know, under its own name', () => {
    const named = [...types.matchAll(/^export type (\w+) = components\['schemas'\]\['(\w+)'\];$/gm)];
    expect(named.every(([, alias, schema]) => alias === schema)).toBe(true);
    expect(named.map(([, name]) => name).sort()).toEqual(precompiledContract().schemaNames());
  });

  it('names the spec it was generated from by its hash', () => {
    expect(specSha256).toBe(sha256(readFileSync(BUNDLED_SPEC_PATH)));
  });

  it('generation is repeatable (the freshness check compares like with like)', async () => {
    const again = await generateValidatorModule(BUNDLED_SPEC_PATH);
    expect(again.ok && again.value.js === js).toBe(true);
  });

  it('a spec that is not OpenAPI fails generation with a message naming the file', async () => {
    const bad = await generateValidatorModule(join(ROOT, 'test/contract/fixtures/mini-error.yaml'));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.message).toMatch(/mini-error\.yaml is not an OpenAPI 3\.1 document/);
  });
});

describe('which validators the bundled spec uses', () => {
  it('the precompiled ones for the very file they were generated from, none for an edited copy', async () => {
    const dir = await scratchDir('precompiled');
    const copy = join(dir, 'openapi.yaml');
    await copyFile(BUNDLED_SPEC_PATH, copy);
    expect((await loadPrecompiledContract(copy))?.version).toBe('1.0.0');
    await writeFile(copy, `${await readFile(copy, 'utf8')}\n# edited\n`);
    expect(await loadPrecompiledContract(copy)).toBeUndefined();
    expect(await loadPrecompiledContract(join(dir, 'missing.yaml'))).toBeUndefined();
  });

  /** The package files (below node_modules) a fresh process has loaded after getting a contract and validating once, from dist. */
  async function packageFilesLoaded(
    how: 'loadContract()' | 'compileSpecAtRunTime(BUNDLED_SPEC_PATH)',
  ): Promise<string[]> {
    const script = `
      import { createRequire } from 'node:module';
      const { BUNDLED_SPEC_PATH } = await import(${JSON.stringify(join(ROOT, 'dist/src/contract/bundled-path.js'))});
      const { compileSpecAtRunTime, loadContract } = await import(${JSON.stringify(join(ROOT, 'dist/src/contract/load.js'))});
      const loaded = await ${how};
      const contract = loaded.ok === undefined ? loaded : loaded.value;
      if (contract.validate('HealthCheckResult', {}).valid) throw new Error('an empty health check validated');
      const files = Object.keys(createRequire(import.meta.url).cache).filter((p) => p.includes('node_modules'));
      console.log(JSON.stringify(files.map((p) => p.split(/node_modules[\\\\/]/).at(-1).replace(/\\\\/g, '/'))));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
    });
    return JSON.parse(stdout) as string[];
  }

  it('loading the bundled contract parses no YAML and compiles nothing: only ajv runtime helpers and format checks load', async () => {
    expect(existsSync(join(ROOT, 'dist/src/contract/load.js')), 'run npm run build first').toBe(true);
    const precompiled = await packageFilesLoaded('loadContract()');
    expect(precompiled.filter((file) => !/^ajv\/dist\/runtime\/|^ajv-formats\/dist\/formats\.js$/.test(file))).toEqual(
      [],
    );
    const runTime = await packageFilesLoaded('compileSpecAtRunTime(BUNDLED_SPEC_PATH)');
    expect(runTime).toEqual(expect.arrayContaining(['ajv/dist/core.js', 'yaml/dist/index.js']));
  });
});
