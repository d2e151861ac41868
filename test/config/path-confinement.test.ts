import { mkdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRunFlags } from '../../src/cli/run-flags.js';
import { loadRunSources } from '../../src/config/load.js';
import { UsageError } from '../../src/model/errors.js';
import { mergeRunValues } from '../../src/model/run-values.js';
import { tempDir } from './support.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  tmp = await tempDir();
  await mkdir(join(tmp.dir, 'ci'));
});
afterEach(async () => {
  await tmp.remove();
});

/** The options of ci/provcert.yaml holding `yaml`, run from the temp dir. */
const loadConfig = async (yaml: string) => {
  await tmp.write('ci/provcert.yaml', yaml);
  return (await loadRunSources({ env: {}, cwd: tmp.dir, configPath: 'ci/provcert.yaml' })).file;
};

describe("a config file's report paths stay in its folder unless allowPathsOutsideConfigDir is set", () => {
  it.each([
    ['a ../ path', 'json: ../../victim.json\n', 'json'],
    ['an absolute path', 'junit: /tmp/provcert-victim.xml\n', 'junit'],
    ['a path that climbs back in and out', 'html: reports/../../x.html\n', 'html'],
    // Issue 32, item 6: links committed beside the config file (ci/out -> .., ci/victim.json -> ../victim.json).
    ['a path through a symlinked folder that leads out', 'json: out/victim.json\n', 'json', 'out', '..'],
    ['a symlinked file that leads out', 'junit: victim.xml\n', 'junit', 'victim.xml', '../victim.xml'],
    ['a dangling symlink whose target is outside', 'html: new.html\n', 'html', 'new.html', '../../made.html'],
    ['a symlink to an absolute folder outside', 'markdown: abs/x.md\n', 'markdown', 'abs', tmpdir()],
  ])('refuses %s in one line naming the key and the opt-in', async (_name, yaml, key, link?: string, to?: string) => {
    if (link !== undefined && to !== undefined) await symlink(to, join(tmp.dir, 'ci', link));
    if (to === '../victim.xml') await tmp.write('victim.xml', 'keep');
    const error = await loadConfig(yaml).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    const message = (error as UsageError).message;
    expect(message).toMatch(new RegExp(`^ci/provcert\\.yaml: ${key}: .* is outside the config file's folder`));
    expect(message).toContain('allowPathsOutsideConfigDir: true');
    expect(message).not.toContain('\n');
  });

  it('takes a path through a symlink that stays inside the folder', async () => {
    await mkdir(join(tmp.dir, 'ci', 'reports'));
    await symlink('reports', join(tmp.dir, 'ci', 'latest'));
    const options = await loadConfig('json: latest/r.json\n');
    expect(options.json).toBe(join('ci', 'latest', 'r.json'));
  });

  it('takes paths inside the folder, and standard output', async () => {
    const options = await loadConfig('json: reports/r.json\nmarkdown: "-"\n');
    expect(options.json).toBe(join('ci', 'reports', 'r.json'));
    expect(options.markdown).toBe('-');
  });

  it('takes any path once the config file allows it', async () => {
    const options = await loadConfig('allowPathsOutsideConfigDir: true\njson: ../out.json\n');
    expect(options.json).toBe('out.json');
  });

  it('leaves flags alone: the person typing them chose the path', async () => {
    await tmp.write('ci/provcert.yaml', 'timeout: 1000\n');
    const { env, file } = await loadRunSources({ env: {}, cwd: tmp.dir, configPath: 'ci/provcert.yaml' });
    const options = mergeRunValues({ flags: parseRunFlags({ json: '/tmp/anywhere.json' }), env, file });
    expect(options.json).toBe('/tmp/anywhere.json');
  });
});
