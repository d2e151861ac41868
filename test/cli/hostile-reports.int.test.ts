import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { runMain } from '../support/cli-io.js';
import { expectRowHandled, ROWS, type Runner } from './hostile-reports.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provcert-hostile-reports-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** provcert in-process; hostile-reports.e2e.test.ts runs a hostile row through the built CLI. */
const inProcess: Runner = async (args, { env, cwd }) => {
  const { code, out, err } = await runMain(cwd, args, { env: { NO_COLOR: '1', CI: '1', ...env } });
  return { code, stdout: out, stderr: err };
};

// Each row writes and reads its own files (run-i, fleet-i, out-i, merged-i): the rows run concurrently.
describe.concurrent('hostile reports through report, replay and merge-reports (issue 25)', () => {
  it.each(ROWS.map((row, i) => [row.name, i] as const))('%s', (_name, i) => expectRowHandled(i, dir, inProcess));
});
