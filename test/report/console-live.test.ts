import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createConsoleReporter, secondsText } from '../../src/report/console.js';
import { failingReport } from './sample-reports.js';

const BASE = 'http://127.0.0.1:4010';
const WEBHOOK_URL = 'http://127.0.0.1:8787/api/v1/webhooks/demo-pizza';
/** More than any sane run writes: a spinner redrawing forever fails the test instead of hanging it. */
const OUTPUT_CAP = 1_000_000;

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error) => void): void {
    this.text += chunk.toString();
    callback(this.text.length > OUTPUT_CAP ? new Error('output grew without bound') : undefined);
  }
}

/** A terminal as ora drives it; its width can change like a real one (then 'resize' is emitted). */
class FakeTty extends Capture {
  readonly isTTY = true;
  constructor(public columns: number) {
    super();
  }
  cursorTo(x: number): boolean {
    return this.write(`\u001b[${x + 1}G`);
  }
  moveCursor(dx: number, dy: number): boolean {
    if (this.text.length > OUTPUT_CAP) throw new Error('output grew without bound');
    return this.write(`\u001b[${dy}A\u001b[${dx}C`);
  }
  clearLine(): boolean {
    if (this.text.length > OUTPUT_CAP) throw new Error('output grew without bound');
    return this.write('\u001b[2K');
  }
  resize(columns: number): void {
    this.columns = columns;
    this.emit('resize');
  }
}

const lines = (stream: Capture): string[] => stream.text.split('\n');

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('console reporter: the header at once', () => {
  it('prints the header on onRunBegin, before GET /provider-info answered, then the plan', () => {
    const stream = new Capture();
    const reporter = createConsoleReporter({ stream, color: false, interactive: false });
    reporter.onRunBegin({ baseUrl: BASE, timeoutMs: 10_000 });
    expect(stream.text).toBe(
      `provcert certifying ${BASE}: reading GET /provider-info first (requests time out after 10 s)\n`,
    );
    reporter.onRunStart({ baseUrl: BASE, webhookUrl: WEBHOOK_URL, profile: 'TRANSACTIONAL', checks: 8 });
    expect(lines(stream).slice(1, 3)).toEqual([
      'profile TRANSACTIONAL, 8 checks',
      `webhook receiver: ${WEBHOOK_URL}  (the provider must post its status events here)`,
    ]);
  });
});

describe('console reporter: what a wait is waiting for', () => {
  it('on a pipe prints one line per change of a wait, not per tick of its countdown', () => {
    const stream = new Capture();
    const reporter = createConsoleReporter({ stream, color: false, interactive: false });
    reporter.onCheckStart('webhook', 'Signed status events');
    reporter.onCheckProgress('webhook', {
      text: '0 of 4 expected events received',
      remainingMs: 30_000,
      endsEarly: true,
    });
    vi.advanceTimersByTime(1_000);
    reporter.onCheckProgress('webhook', {
      text: '0 of 4 expected events received',
      remainingMs: 29_000,
      endsEarly: true,
    });
    vi.advanceTimersByTime(5_000);
    reporter.onCheckProgress('webhook', {
      text: '2 of 4 expected events received',
      remainingMs: 24_000,
      endsEarly: true,
    });
    reporter.onCheckStart('quote-expiry', 'An expired quote creates no action');
    reporter.onCheckProgress('quote-expiry', { text: 'waiting for quote q-1 to expire', remainingMs: 3_240 });
    expect(lines(stream)).toEqual([
      '… webhook: 0 of 4 expected events received, up to 30 s left',
      '… webhook: 2 of 4 expected events received, up to 24 s left',
      '… quote-expiry: waiting for quote q-1 to expire, 3.2 s left',
      '',
    ]);
  });

  it('ignores progress of a check that is not running (finished or never started)', () => {
    const stream = new Capture();
    const reporter = createConsoleReporter({ stream, color: false, interactive: false });
    reporter.onCheckProgress('webhook', { text: 'too early' });
    const [result] = failingReport().checks;
    if (!result) throw new Error('sample report has no checks');
    reporter.onCheckStart(result.id, result.title);
    reporter.onCheckEnd(result);
    reporter.onCheckProgress(result.id, { text: 'too late' });
    expect(stream.text).not.toMatch(/too early|too late/);
  });

  it('on a terminal counts the wait down in place on the status line, beside the other running checks', () => {
    const stream = new FakeTty(120);
    const reporter = createConsoleReporter({ stream, color: false, interactive: true });
    reporter.onCheckStart('catalog', 'Catalog');
    reporter.onCheckStart('webhook', 'Signed status events');
    reporter.onCheckProgress('webhook', {
      text: '0 of 4 expected events received',
      remainingMs: 30_000,
      endsEarly: true,
    });
    vi.advanceTimersByTime(100); // the next spinner frame
    expect(stream.text).toContain('webhook: 0 of 4 expected events received, up to 30 s left · running catalog');
    vi.advanceTimersByTime(6_000);
    expect(stream.text).toContain('webhook: 0 of 4 expected events received, up to 24 s left · running catalog');
    expect(stream.text).not.toContain('… webhook');
    reporter.onRunEnd(failingReport());
    const length = stream.text.length;
    vi.advanceTimersByTime(2_000);
    expect(stream.text.length).toBe(length);
  });

  it('formats countdowns in whole seconds from 10 s, tenths below, never negative', () => {
    expect([30_000, 10_000, 9_960, 3_240, 0, -50].map(secondsText)).toEqual([
      '30 s',
      '10 s',
      '10.0 s',
      '3.2 s',
      '0.0 s',
      '0.0 s',
    ]);
  });
});

describe('console reporter: a terminal without width', () => {
  it('draws no spinner on a terminal reporting 0 columns: plain lines, bounded output', () => {
    const stream = new FakeTty(0);
    const reporter = createConsoleReporter({ stream, color: false, interactive: true });
    reporter.onRunBegin({ baseUrl: BASE, timeoutMs: 10_000 });
    reporter.onCheckStart('webhook', 'Signed status events');
    reporter.onCheckProgress('webhook', {
      text: '0 of 2 expected events received',
      remainingMs: 30_000,
      endsEarly: true,
    });
    vi.advanceTimersByTime(5_000);
    reporter.onRunEnd(failingReport());
    expect(stream.text).not.toContain('\u001b');
    expect(stream.text).toContain('… webhook: 0 of 2 expected events received, up to 30 s left\n');
  });

  it('stops the spinner when the terminal is resized to 0 columns and goes on in plain lines', () => {
    const stream = new FakeTty(100);
    const reporter = createConsoleReporter({ stream, color: false, interactive: true });
    reporter.onCheckStart('webhook', 'Signed status events');
    vi.advanceTimersByTime(500);
    expect(stream.text).toContain('running webhook');
    stream.resize(0);
    const before = stream.text.length;
    vi.advanceTimersByTime(2_000);
    expect(stream.text.length).toBe(before);
    reporter.onCheckProgress('webhook', {
      text: '1 of 2 expected events received',
      remainingMs: 20_000,
      endsEarly: true,
    });
    expect(stream.text.slice(before)).toBe('… webhook: 1 of 2 expected events received, up to 20 s left\n');
  });
});

describe('console reporter: an interrupted run', () => {
  it('says the run was stopped and what ran, instead of a verdict', () => {
    const stream = new Capture();
    const reporter = createConsoleReporter({ stream, color: false, interactive: false });
    const report = { ...failingReport(), verdict: 'INTERRUPTED' as const, interruptedBy: 'SIGTERM' };
    reporter.onRunEnd({ ...report, notRun: ['search'] }, { interruptedBy: 'SIGTERM' });
    const out = lines(stream);
    expect(out.at(-3)).toBe('INTERRUPTED  3 passed, 3 failed, 1 skipped, 1 errors  (6.2 s)');
    expect(out.at(-2)).toBe(
      'The run was stopped (SIGTERM): 7 of 8 checks ran to the end; 1 check did not run: search (marked skipped); fix the checks marked ✗ (or !) above. ' +
        'This is no verdict: run again to certify.',
    );
    // Stopped after its last check ended: nothing was kept from running.
    const whole = new Capture();
    createConsoleReporter({ stream: whole, color: false, interactive: false }).onRunEnd(
      { ...report, notRun: [] },
      { interruptedBy: 'SIGTERM' },
    );
    expect(whole.text).toContain('7 of 8 checks ran to the end (the others are marked skipped); fix');
    expect(stream.text).not.toMatch(/Certification (failed|passed)|^FAIL/m);
  });
});
