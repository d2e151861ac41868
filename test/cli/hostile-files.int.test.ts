import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { runMain } from '../support/cli-io.js';
import { expectRefused, HOSTILE_ENV, hostileCases, writeHostileFiles } from './hostile-files.js';

/** Every hostile file through every reader, the CLI in-process; hostile-files.e2e.test.ts spawns the built CLI. */
let dir: string;

beforeAll(async () => {
  dir = await writeHostileFiles();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.concurrent('hostile files: one line, exit 2, through every reader of user YAML/JSON', () => {
  it.each(hostileCases())('%s: %s', async (_reader, _file, args, says, codes) => {
    const { code, out, err } = await runMain(dir, args, { env: HOSTILE_ENV });
    expectRefused({ code, stdout: out, stderr: err }, says, codes);
  });
});
