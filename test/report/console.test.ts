import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/report.js';
import { createConsoleReporter } from '../../src/report/console.js';
import { shouldBeInteractive, shouldUseColor, terminalMode } from '../../src/util/terminal-mode.js';
import { CANARY, failingReport, passingReport } from './sample-reports.js';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

/** Enough of a TTY for ora: cursor movements are written as escape codes like a terminal would get. */
class FakeTty extends Capture {
  readonly isTTY = true;
  readonly columns = 100;
  cursorTo(x: number): boolean {
    return this.write(`\u001b[${x + 1}G`);
  }
  moveCursor(dx: number, dy: number): boolean {
    return this.write(`\u001b[${dy}A\u001b[${dx}C`);
  }
  clearLine(): boolean {
    return this.write('\u001b[2K');
  }
}

function play(report: RunReport, stream: Capture, options: { color: boolean; interactive: boolean }): string {
  const reporter = createConsoleReporter({ stream, ...options });
  reporter.onRunStart({
    baseUrl: report.provider.baseUrl,
    webhookUrl: report.webhooks.url,
    profile: report.provider.profile ?? 'unknown',
    checks: report.checks.length,
  });
  for (const check of report.checks) reporter.onCheckStart(check.id, check.title);
  for (const check of report.checks) reporter.onCheckEnd(check);
  reporter.onRunEnd(report);
  return stream.text;
}

describe('createConsoleReporter', () => {
  it('says the unverifiable webhook requests it ignored apart, before the verdict, and only when there were some', () => {
    const report = passingReport();
    const ignored = { count: 12, byStatus: { '413': 7, '401': 5 } };
    const out = play({ ...report, webhooks: { ...report.webhooks, ignored } }, new Capture(), {
      color: false,
      interactive: false,
    });
    expect(out).toContain(
      "12 unverifiable webhook requests ignored (HTTP 401 ×5, 413 ×7): not signed with the provider's secret, so not counted against it\n",
    );
    expect(play(report, new Capture(), { color: false, interactive: false })).not.toContain('ignored');
  });

  it('prints plain lines without colour or spinner when not interactive', () => {
    const out = play(failingReport(), new Capture(), { color: false, interactive: false });
    const lines = out.split('\n');
    expect(lines[0]).toBe('provcert certifying http://127.0.0.1:4010 (profile TRANSACTIONAL, 8 checks)');
    expect(lines[1]).toBe(
      'webhook receiver: http://127.0.0.1:8787/api/v1/webhooks/demo-pizza  (the provider must post its status events here)',
    );
    expect(lines).toContain('✓ catalog  Catalog schema and consistency (12 ms)');
    expect(lines).toContain('✗ quote-math  total 2350 ≠ subtotal 2100 + fees 300 − discount 0');
    expect(lines).toContain(
      '- search  SEARCH is not declared | skipped <script>window.__provcertInjected = true</script>',
    );
    expect(lines).toContain('! errors  the check could not run: timed out after 10000 ms');
    expect(lines).toContain(
      '    warning [METADATA-RULE]: catalog price differs from quote: 900 vs 950 (100%: not a failure)',
    );
    expect(lines.at(-4)).toBe('FAIL  3 passed, 3 failed, 1 skipped, 1 errors  (6.2 s)');
    expect(lines.at(-3)).toMatch(/^Certification failed/);
    expect(lines.at(-2)).toMatch(
      /^Next: reproduce quote-math with its reproduce command above and fix it, then run provcert again\.$/,
    );
    expect(out).not.toContain('\u001b');
    expect(out).not.toContain(CANARY);
  });

  it('follows a failure with its details, expected vs found, reproduce command and request', () => {
    const out = play(failingReport(), new Capture(), { color: false, interactive: false });
    const start = out.indexOf('✗ quote-math');
    const block = out.slice(start, out.indexOf('\n✗ webhook', start));
    expect(block).toContain('\n    - line 1 offeringTitle is provider text:');
    expect(block).toMatch(/\n {4}violates: QUOTE-TOTAL( \(Endpoints › Provider route behaviour rules\))?\n/);
    // Shown escaped, never interpreted (sanitizeTerminalText).
    expect(block).toContain('\n    - control characters\\x1b[2J\\x07 are dropped');
    expect(block).toContain('\n    expected:\n      {\n        "total": 2400\n      }');
    expect(block).toContain('\n    found:\n      {\n        "total": 2350,');
    expect(block).toContain('\n    total: expected 2100 + 300 − 0 = 2400, provider 2350');
    expect(block).toContain(
      '\n    reproduce:\n      BODY=\'{"providerSlug":"demo-pizza"}\'\n      curl -sS -i -X POST',
    );
    expect(block).toContain('\n    request: POST http://127.0.0.1:4010/quote → 200');
  });

  it('ends a passing run with PASS', () => {
    const lines = play(passingReport(), new Capture(), { color: false, interactive: false }).split('\n');
    expect(lines.at(-3)).toBe('PASS  5 passed, 0 failed, 1 skipped, 0 errors  (5.9 s)');
  });

  it('colours when asked', () => {
    const out = play(passingReport(), new Capture(), { color: true, interactive: false });
    expect(out).toContain('\u001b[32m✓\u001b[39m');
  });

  it('shows a spinner on a terminal and stops it at the end', async () => {
    const stream = new FakeTty();
    const out = play(failingReport(), stream, { color: false, interactive: true });
    expect(out).toContain('running base-url');
    expect(out).toContain('running metadata, catalog, search (+4)');
    expect(out).toContain('✗ quote-math  total 2350');
    expect(out).toContain('FAIL  3 passed, 3 failed, 1 skipped, 1 errors  (6.2 s)');
    const length = stream.text.length;
    await sleep(150); // longer than a spinner frame: nothing more may be drawn
    expect(stream.text.length).toBe(length);
  });
});

describe('terminalMode: the one decision of colour and spinner', () => {
  const tty = { isTTY: true, columns: 100 };
  const noWidth = { isTTY: true, columns: 0 };
  const unknownWidth = { isTTY: true };
  const pipe = { isTTY: false };
  it.each([
    ['a terminal', tty, {}, {}, { color: true, spinner: true }],
    ['a pipe', pipe, {}, {}, { color: false, spinner: false }],
    ['a terminal reporting 0 columns', noWidth, {}, {}, { color: true, spinner: false }],
    ['a terminal without a known width', unknownWidth, {}, {}, { color: true, spinner: false }],
    ['NO_COLOR=1', tty, { NO_COLOR: '1' }, {}, { color: false, spinner: false }],
    ['NO_COLOR empty (unset)', tty, { NO_COLOR: '' }, {}, { color: true, spinner: true }],
    ['--no-color', tty, {}, { noColor: true }, { color: false, spinner: false }],
    ['CI=true', tty, { CI: 'true' }, {}, { color: false, spinner: false }],
    ['CI=1', tty, { CI: '1' }, {}, { color: false, spinner: false }],
    ['CI=false', tty, { CI: 'false' }, {}, { color: true, spinner: true }],
    ['CI=0', tty, { CI: '0' }, {}, { color: true, spinner: true }],
    ['TERM=dumb', tty, { TERM: 'dumb' }, {}, { color: false, spinner: false }],
    ['TERM=xterm-256color', tty, { TERM: 'xterm-256color' }, {}, { color: true, spinner: true }],
    [
      'FORCE_COLOR=1 on a pipe (colour, never a spinner)',
      pipe,
      { FORCE_COLOR: '1' },
      {},
      { color: true, spinner: false },
    ],
    ['FORCE_COLOR=0', tty, { FORCE_COLOR: '0' }, {}, { color: false, spinner: true }],
    [
      'FORCE_COLOR beats NO_COLOR for colour, not for the spinner',
      tty,
      { NO_COLOR: '1', FORCE_COLOR: '1' },
      {},
      { color: true, spinner: false },
    ],
    ['--no-color beats FORCE_COLOR', tty, { FORCE_COLOR: '1' }, { noColor: true }, { color: false, spinner: false }],
  ])('%s', (_name, stream, env, options, expected) => {
    expect(terminalMode(stream, env, options)).toEqual(expected);
  });

  it('shouldUseColor and shouldBeInteractive are its two halves', () => {
    expect(shouldUseColor(tty, { TERM: 'dumb' })).toBe(false);
    expect(shouldUseColor(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldBeInteractive(tty, {})).toBe(true);
    expect(shouldBeInteractive(noWidth, {})).toBe(false);
  });
});
