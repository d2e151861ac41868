import { setImmediate as nextTurn, setTimeout as pause } from 'node:timers/promises';
import type { Clock } from '../model/clock.js';

interface Sleeper {
  at: number;
  wake: () => void;
}

/**
 * A clock that moves only when told: `advance(ms)` moves it and wakes the sleeps that are due, in order. Shared
 * by a certification and the reference provider, it lets a test see a quote expire or a webhook wait time out
 * without waiting for it; `advanceWhenIdle` moves it by itself, the way the bench and `certify()` in the tests
 * run a whole certification in about a second.
 */
export class ManualClock implements Clock {
  private current: number;
  private readonly sleepers = new Set<Sleeper>();
  /** Counts reads and sleeps: something that reads the clock is still working. */
  private activity = 0;
  /** Servers sharing the clock that say when they are working (workingWhile): the clock waits for them. */
  private readonly workers = new Set<() => boolean>();
  /** Wakes advanceWhenIdle's loop when a sleep starts. */
  private onSleep: (() => void) | undefined;

  constructor(start: number = Date.now()) {
    this.current = start;
  }

  now(): number {
    this.activity += 1;
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.activity += 1;
    if (signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const sleeper: Sleeper = {
        at: this.current + Math.max(0, ms),
        wake: () => {
          this.sleepers.delete(sleeper);
          signal?.removeEventListener('abort', sleeper.wake);
          resolve();
        },
      };
      this.sleepers.add(sleeper);
      this.onSleep?.();
      signal?.addEventListener('abort', sleeper.wake, { once: true });
    });
  }

  workingWhile(busy: () => boolean): () => void {
    const worker = (): boolean => busy();
    this.workers.add(worker);
    return () => {
      this.workers.delete(worker);
    };
  }

  /** How many sleeps are waiting for the clock. */
  get sleeping(): number {
    return this.sleepers.size;
  }

  /** Moves the clock `ms` ahead, waking each due sleep at its own time and letting it run before the next. */
  async advance(ms: number): Promise<void> {
    const target = this.current + Math.max(0, ms);
    for (let next = this.nextDue(target); next; next = this.nextDue(target)) {
      this.current = Math.max(this.current, next.at);
      next.wake();
      await nextTurn();
    }
    this.current = target;
  }

  /**
   * Moves the clock to the next sleep's end whenever nothing else is going on: no sleep started or clock read
   * for `quietTurns` turns of the event loop, and `busy()` (say, the reference provider answering or sending)
   * false, nor any server's that said when it works (workingWhile). Work between two clock reads thus takes no
   * time on this clock, as in a simulation; a wait for an event that is coming (a webhook being sent) is not cut
   * short as long as `busy()` or workingWhile covers it. Returns stop.
   */
  advanceWhenIdle(busy: () => boolean = () => false, quietTurns = 20): () => void {
    let stopped = false;
    const stop = (): void => {
      stopped = true;
      this.onSleep?.();
    };
    void (async () => {
      let quiet = 0;
      let seen = this.activity;
      while (!stopped) {
        if (this.sleepers.size === 0) await new Promise<void>((resolve) => (this.onSleep = resolve));
        this.onSleep = undefined;
        // A millisecond a turn: quiet means about `quietTurns` ms in which nothing read the clock.
        await pause(1);
        const idle = this.sleepers.size > 0 && !busy() && !this.working() && this.activity === seen;
        quiet = idle ? quiet + 1 : 0;
        seen = this.activity;
        if (quiet < quietTurns) continue;
        quiet = 0;
        const next = this.nextDue(Number.POSITIVE_INFINITY);
        if (next) await this.advance(next.at - this.current);
        seen = this.activity;
      }
    })();
    return stop;
  }

  private working(): boolean {
    for (const busy of this.workers) if (busy()) return true;
    return false;
  }

  private nextDue(until: number): Sleeper | undefined {
    let first: Sleeper | undefined;
    for (const s of this.sleepers) if (s.at <= until && (!first || s.at < first.at)) first = s;
    return first;
  }
}
