import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { expectRefused, HOSTILE_ENV, hostileCases, writeHostileFiles } from './hostile-files.js';

/**
 * Hostile files through the built CLI: the deepest nesting through every reader, in a process of its own (its own
 * stack). Every file through every reader, in-process: hostile-files.int.test.ts.
 */
let dir: string;

beforeAll(async () => {
  dir = await writeHostileFiles();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.concurrent('hostile files through the built CLI: one line, exit 2', () => {
  it.each(hostileCases(['deep nesting']))('%s: %s', async (_reader, _file, args, says, codes) => {
    expectRefused(await runCli(args, { cwd: dir, env: HOSTILE_ENV }), says, codes);
  });
});
