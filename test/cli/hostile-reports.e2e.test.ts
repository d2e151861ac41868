import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { expectRowHandled, ROWS } from './hostile-reports.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provcert-hostile-reports-e2e-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * Through the built CLI: a contradiction refused (one line on a real stderr, exit 2) and escape sequences rendered
 * inert on a real stdout. Every row in-process: hostile-reports.int.test.ts.
 */
const SPAWNED = ['a forged verdict', 'escape sequences and HTML in every free-text string'];

describe.concurrent('hostile reports through the built report, replay and merge-reports', () => {
  it.each(ROWS.flatMap((row, i) => (SPAWNED.includes(row.name) ? [[row.name, i] as const] : [])))(
    '%s',
    (_name, i) => expectRowHandled(i, dir, (args, options) => runCli(args, { ...options, timeoutMs: 60_000 })),
    120_000,
  );
});
