import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type SignalSource } from '../../src/cli/main.js';
import type { FleetReport } from '../../src/model/fleet-report.js';
import { captureIo } from '../support/cli-io.js';
import { readFleetJson, startTestFleet, type TestFleet, writeFleetFile } from './support.js';

/** Stands in for the process's signals: the test sends SIGINT when it chooses. */
function fakeSignals(): SignalSource & { send(name: 'SIGINT' | 'SIGTERM'): void } {
  const listeners = new Map<string, () => void>();
  return {
    on: (name, listener) => listeners.set(name, listener),
    off: (name) => listeners.delete(name),
    raise: () => undefined,
    send: (name) => listeners.get(name)?.(),
  };
}

describe('provcert batch stopped by Ctrl-C', () => {
  let fleet: TestFleet;
  let code: number;
  let report: FleetReport;

  beforeAll(async () => {
    fleet = await startTestFleet([{ slug: 'first-kitchen' }, { slug: 'second-kitchen' }, { slug: 'third-kitchen' }]);
    const file = await writeFleetFile(fleet);
    const { io } = captureIo(fleet.dir, fleet.env);
    const signals = fakeSignals();
    const second = fleet.providers.get('second-kitchen');
    // One provider at a time: Ctrl-C once the second has been asked something (the first is done, the third waits).
    const watch = setInterval(() => {
      if ((second?.requests.length ?? 0) > 0) {
        clearInterval(watch);
        signals.send('SIGINT');
      }
    }, 5);
    code = await main(
      ['node', 'provcert', 'batch', file, '--concurrency', '1', '--out', 'out', '--no-color'],
      io,
      signals,
    );
    clearInterval(watch);
    report = await readFleetJson(fleet.dir, 'out');
  }, 120_000);
  afterAll(() => fleet.close());

  it('exits 130 and writes what was done', () => {
    expect(code).toBe(130);
    expect(report.interruptedBy).toBe('SIGINT');
    expect(report.verdict).toBe('INTERRUPTED');
  });

  it("keeps the finished and the running providers' reports; the others are NOT_RUN", () => {
    const [first, second, third] = report.providers;
    expect(first?.slug).toBe('first-kitchen');
    expect(first?.verdict).toBe('PASS');
    expect(second?.report?.checks.length).toBeGreaterThan(0);
    expect(third).toMatchObject({ slug: 'third-kitchen', verdict: 'NOT_RUN' });
    expect(third?.report).toBeUndefined();
    expect(fleet.providers.get('third-kitchen')?.requests).toEqual([]);
    expect(report.summary.notRun).toBe(1);
  });
});
