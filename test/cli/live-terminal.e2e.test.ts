import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/report.js';
import { scratchDir } from '../support/scratch.js';
import { type LiveCli, spawnCliInTerminal } from './live-spawn.js';

/** What the terminal shows, without colours and cursor movements. */
const shown = (cli: LiveCli): string => stripVTControlCharacters(cli.output());

/** ora hides the cursor when its spinner starts: the spinner was drawn. */
const SPINNER_STARTED = '\u001b[?25l';

describe.concurrent('live output under a pseudo-terminal (the built CLI, as a person at a terminal runs it)', () => {
  it('a terminal reporting 0 columns gets no spinner: demo finishes, exit 0, bounded output', async () => {
    const cli = spawnCliInTerminal(['demo'], 0);
    const { code, bytes } = await cli.exit;
    expect(bytes).toBeLessThan(200_000); // it wrote 1.6 GB in 17 min before
    expect(code, cli.output().slice(-2_000)).toBe(0);
    expect(shown(cli)).toMatch(/^PASS {2}\d+ passed, 0 failed/m);
    expect(cli.output()).not.toContain(SPINNER_STARTED);
  });

  it('a terminal with width does get the spinner (so the case above really ran on a terminal)', async () => {
    const cli = spawnCliInTerminal(['demo'], 100);
    const { code } = await cli.exit;
    expect(code, cli.output().slice(-2_000)).toBe(0);
    expect(cli.output()).toContain(SPINNER_STARTED);
    // The wait for the quote to expire is counted down in place on the status line.
    expect(cli.output()).toMatch(/quote-expiry: waiting for quote \S+ to expire, \d+\.\d s left/);
  });

  it('NO_COLOR on a terminal: no spinner, no colour', async () => {
    const cli = spawnCliInTerminal(['demo', '--fault', 'quote-total-wrong'], 100, { NO_COLOR: '1' });
    const { code } = await cli.exit;
    expect(code).toBe(1);
    expect(cli.output()).not.toContain('\u001b[');
    expect(cli.output()).toMatch(/^✗ quote-math/m);
  });

  it('--no-color on a terminal: no spinner, no colour', async () => {
    const cli = spawnCliInTerminal(['demo', '--no-color'], 100);
    const { code } = await cli.exit;
    expect(code).toBe(0);
    expect(cli.output()).not.toContain('\u001b[');
  });

  it('SIGTERM during a long wait stops the run at once with the report written: exit 143', async () => {
    const dir = await scratchDir('live-sigterm');
    // A 100 s quote validity: quote-expiry (and webhook, after it) would wait that long.
    const cli = spawnCliInTerminal(['demo', '--quote-ttl', '100', '--json', join(dir, 'report.json')], 100);
    await cli.waitFor(/quote-expiry: waiting for quote \S+ to expire/);
    const signalled = performance.now();
    cli.signal('SIGTERM');
    const { code } = await cli.exit;
    expect(performance.now() - signalled).toBeLessThan(10_000); // it used to ignore SIGTERM entirely
    expect(code).toBe(143);
    expect(shown(cli)).toMatch(/INTERRUPTED {2}\d+ passed/);
    expect(shown(cli)).toContain('The run was stopped (SIGTERM)');
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as RunReport;
    const expiry = report.checks.find((c) => c.id === 'quote-expiry');
    expect(expiry?.status).toBe('skip');
    expect(expiry?.message).toMatch(/interrupted|the run ended/);
  });
});
