import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/util/manual-clock.js';

const START = Date.UTC(2026, 0, 1);

describe('ManualClock', () => {
  it('stands still until advanced, then wakes each due sleep at its own time, in order', async () => {
    const clock = new ManualClock(START);
    const woke: [string, number][] = [];
    const sleep = (name: string, ms: number) => clock.sleep(ms).then(() => woke.push([name, clock.now() - START]));
    const all = Promise.all([sleep('late', 300), sleep('early', 100), sleep('beyond', 1000)]);
    expect(clock.now()).toBe(START);
    await clock.advance(500);
    expect(woke).toEqual([
      ['early', 100],
      ['late', 300],
    ]);
    expect(clock.now()).toBe(START + 500);
    expect(clock.sleeping).toBe(1);
    await clock.advance(500);
    await all;
    expect(woke.at(-1)).toEqual(['beyond', 1000]);
  });

  it('ends a sleep at once when its signal aborts, before or during it', async () => {
    const clock = new ManualClock(START);
    const aborted = new AbortController();
    aborted.abort();
    await clock.sleep(10_000, aborted.signal);
    const later = new AbortController();
    const sleeping = clock.sleep(10_000, later.signal);
    later.abort();
    await sleeping;
    expect(clock.now()).toBe(START);
    expect(clock.sleeping).toBe(0);
  });

  it('advanceWhenIdle moves to the next sleep only while nothing reads the clock and busy() is false', async () => {
    const clock = new ManualClock(START);
    let busy = true;
    const stop = clock.advanceWhenIdle(() => busy, 3);
    let done = false;
    const sleeping = clock.sleep(5000).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(done).toBe(false);
    expect(clock.now()).toBe(START);
    busy = false;
    await sleeping;
    expect(clock.now()).toBe(START + 5000);
    stop();
  });

  it('advanceWhenIdle also waits while a server that said when it works (workingWhile) is working', async () => {
    const clock = new ManualClock(START);
    let working = true;
    const stopWorking = clock.workingWhile(() => working);
    const stop = clock.advanceWhenIdle(() => false, 3);
    let done = false;
    const sleeping = clock.sleep(5000).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(done).toBe(false);
    expect(clock.now()).toBe(START);
    working = false;
    await sleeping;
    expect(clock.now()).toBe(START + 5000);
    // Once it stops saying so, the clock no longer asks it.
    working = true;
    stopWorking();
    await clock.sleep(1000);
    expect(clock.now()).toBe(START + 6000);
    stop();
  });
});
