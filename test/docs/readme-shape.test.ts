import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/package-root.js';

/**
 * What README.md and the provider guide promise a reader (issues 31 and 34), held as text: the README stays short,
 * its provider section shows the everyday loop, the clone's commands start at once, and the tarball install's npm
 * warning is explained — and stays true.
 */

const read = (path: string): string => readFileSync(join(packageRoot, path), 'utf8');
const README = read('README.md');

/** The text of a `## ` section of README.md, up to the next one. */
const section = (title: string): string => README.split(`\n## ${title}\n`)[1]?.split('\n## ')[0] ?? '';

describe('README.md', () => {
  it('is at most 300 lines: the rest lives under docs/', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(300);
  });

  it("the provider developers' paragraph shows the loop: recap, --last-failed, replay, --only, the guide", () => {
    const who = section('Who it is for');
    const loop = who.slice(who.indexOf('**The loop.**'), who.indexOf('**CI pipelines**'));
    expect(loop.length).toBeGreaterThan(0);
    for (const part of ['recap', '--last-failed', '.provcert/last-run.json', 'provcert replay', '--only', '--skip'])
      expect(loop, part).toContain(part);
    expect(loop).toContain('(docs/guides/provider.md#the-local-loop---last-failed---only-replay)');
  });

  it('runs the clone with node bin/provcert.js, never npx (which rebuilds a linked checkout first), and says why', () => {
    const quickStart = section('Quick start');
    const commands = [...quickStart.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '').join('\n');
    expect(commands).toContain('node bin/provcert.js demo');
    expect(commands).not.toContain('npx provcert');
    expect(quickStart).toMatch(/`npx provcert` in the clone makes npm run `prepare`/);
  });
});

describe('the provider guide', () => {
  it("explains npm's install-scripts warning on the tarball install, naming the one install-time script", () => {
    const guide = read('docs/guides/provider.md');
    expect(guide).toMatch(/npm 11 may warn `install-scripts … provcert@[\d.]+ \(prepare: npm run build\)`/);
    expect(guide).toContain('npm never runs `prepare` for a tarball');
    // The explanation holds while `prepare` is the only script npm could run at install, and builds.
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    const installTime = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'];
    expect(Object.keys(scripts).filter((s) => installTime.includes(s))).toEqual(['prepare']);
    expect(scripts['prepare']).toBe('npm run build');
  });
});
