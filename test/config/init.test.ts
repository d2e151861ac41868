import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadRunSources } from '../../src/config/load.js';
import { configSchema } from '../../src/config/schema.js';
import { UsageError } from '../../src/model/errors.js';
import { captureIo, runCommand } from '../support/cli-io.js';
import { tempDir } from './support.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  tmp = await tempDir();
});
afterEach(async () => {
  await tmp.remove();
});

/** The starter's options, as `run` reads the config file. */
const loadFile = async () => (await loadRunSources({ env: {}, cwd: tmp.dir })).file;

const starterPath = (): string => join(tmp.dir, 'provcert.config.yaml');

/** Turn every commented `# key: value` option line into a live one (except the keys named). */
function uncomment(text: string, except: readonly string[]): string {
  return text
    .split('\n')
    .map((line) => {
      const m = /^# ([a-z][A-Za-z]*): (.*)$/.exec(line);
      return m?.[1] && !except.includes(m[1]) ? `${m[1]}: ${m[2] ?? ''}` : line;
    })
    .join('\n');
}

describe('provcert init', () => {
  it('git-ignores .provcert/ (the state run --last-failed reads), once, beside what .gitignore already lists', async () => {
    await writeFile(join(tmp.dir, '.gitignore'), 'node_modules');
    const { io, out } = captureIo(tmp.dir);
    expect(await runCommand(io, ['init'])).toBe(0);
    expect(out()).toContain('added .provcert/ to .gitignore');
    expect(await readFile(join(tmp.dir, '.gitignore'), 'utf8')).toBe(
      'node_modules\n# provcert run state (provcert run --last-failed)\n.provcert/\n',
    );
    const again = captureIo(tmp.dir);
    expect(await runCommand(again.io, ['init', '--force'])).toBe(0);
    expect(again.out()).not.toContain('.gitignore');
    expect((await readFile(join(tmp.dir, '.gitignore'), 'utf8')).match(/\.provcert\//g)).toHaveLength(1);
  });

  it('writes a commented starter that loads as an empty config', async () => {
    const { io, out } = captureIo(tmp.dir);
    expect(await runCommand(io, ['init'])).toBe(0);
    expect(out()).toContain('wrote provcert.config.yaml');
    const text = await readFile(starterPath(), 'utf8');
    for (const key of Object.keys(configSchema().properties)) expect(text).toContain(`# ${key}: `);
    expect(text).toContain('# timeout: 10000');
    expect(text).toContain('# webhookPort: 8787');
    expect(await loadFile()).toEqual({});
  });

  it('every option line of the starter, uncommented, validates and loads', async () => {
    const { io } = captureIo(tmp.dir);
    await runCommand(io, ['init']);
    const text = await readFile(starterPath(), 'utf8');
    // credentialFile is the alternative to credentialEnv; both at once is (rightly) an error.
    await writeFile(starterPath(), uncomment(text, ['credentialFile']));
    const loaded = await loadFile();
    expect(loaded).toMatchObject({
      baseUrl: 'https://provider.example.com/api',
      auth: 'API_KEY',
      credentialEnv: 'PROVIDER_API_KEY',
      timeout: 10000,
      local: false,
      reporter: ['console'],
      only: ['metadata', 'catalog'],
    });
    await writeFile(starterPath(), uncomment(text, ['credentialEnv']));
    expect((await loadFile()).credentialFile).toBe('./secrets/provider-api-key');
  });

  it('refuses to overwrite without --force, overwrites with it', async () => {
    await writeFile(starterPath(), 'timeout: 1234\n');
    const { io } = captureIo(tmp.dir);
    const refused = await runCommand(io, ['init']).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as UsageError).message).toBe('provcert.config.yaml already exists; not overwritten');
    expect(await readFile(starterPath(), 'utf8')).toBe('timeout: 1234\n');
    expect(await runCommand(io, ['init', '--force'])).toBe(0);
    expect(await readFile(starterPath(), 'utf8')).toContain('# timeout: 10000');
  });

  it('--config writes elsewhere', async () => {
    const { io, out } = captureIo(tmp.dir);
    await runCommand(io, ['init', '--config', 'ci.yaml']);
    expect(out()).toContain('provcert run --config ci.yaml');
    expect((await loadRunSources({ env: {}, cwd: tmp.dir, configPath: 'ci.yaml' })).file).toEqual({});
  });
});
