import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../support/scratch.js';
import { type CommandResult, packProvcert, repo, runCommand, writeJson } from './packed-provcert.js';

/*
 * examples/library is a provider's project using provcert as a library (types, matchers, certify()). It is run here
 * as a provider runs it: the packed provcert installed from its tarball, the project's own vitest and tsc.
 */

const EXAMPLE = join(repo, 'examples/library');

describe('the library example project, with provcert installed from its tarball', () => {
  let work = '';
  let project = '';

  beforeAll(async () => {
    work = await scratchDir('library');
    const packed = await packProvcert(work);
    project = join(work, 'provider-backend');
    await cp(EXAMPLE, project, { recursive: true, filter: (path) => !path.includes('node_modules') });
    const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    manifest.devDependencies['provcert'] = `file:${packed.path}`;
    await writeJson(join(project, 'package.json'), manifest);
    const install = await runCommand('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], project, {
      timeoutMs: 240_000,
    });
    if (install.code !== 0) throw new Error(`npm install failed in the example:\n${install.stderr}${install.stdout}`);
  }, 300_000);

  /**
   * `tsc --noEmit` in the project, as its typecheck script runs it. Incremental, with its build info outside the
   * project: the second check (a handler broken) reuses the first's results for the files it did not change, the
   * .d.ts files of provcert and vitest included (skipLibCheck is off), and checks the rest as a full run would.
   */
  const typeCheck = (): Promise<CommandResult> =>
    runCommand(
      'npx',
      ['--no-install', 'tsc', '--noEmit', '--incremental', '--tsBuildInfoFile', join(work, 'tsc.tsbuildinfo')],
      project,
    );

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  // The type check and the example's own tests read the project and change nothing: they run at once. The test that
  // breaks a handler edits the project, so it runs after both (a test after concurrent ones waits for them).
  it.concurrent('its handlers type-check against provcert/types', async () => {
    const r = await typeCheck();
    expect(r.stdout).toBe(''); // tsc prints its errors on stdout
    expect(r.code).toBe(0);
  }, 120_000);

  it.concurrent('its tests pass: validate(), the Vitest and Jest matchers, and certify() against a running backend', async () => {
    const r = await runCommand('npx', ['--no-install', 'vitest', 'run', '--reporter', 'verbose'], project, {
      timeoutMs: 180_000,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    for (const name of [
      'health and quote bodies match their schemas',
      'a body that does not match fails the matcher with the explained errors',
      'passes a conforming body and fails a broken one with the explained errors',
      'our backend passes certification',
    ])
      expect(r.stdout).toContain(name);
    expect(r.stdout).toMatch(/Tests\s+6 passed \(6\)/);
  }, 200_000);

  it('a handler that breaks the contract does not type-check', async () => {
    const handlers = join(project, 'src/handlers.ts');
    const original = await readFile(handlers, 'utf8');
    try {
      const broken = original.replace('latencyMs, timestamp', 'latencyMs: String(latencyMs), timestamp');
      expect(broken).not.toBe(original);
      await writeFile(handlers, broken);
      const r = await typeCheck();
      expect(r.code).not.toBe(0);
      expect(r.stdout).toMatch(/src\/handlers\.ts.*Type 'string' is not assignable to type 'number'/);
    } finally {
      await writeFile(handlers, original);
    }
  }, 120_000);
});
