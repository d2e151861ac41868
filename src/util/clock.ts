import { setTimeout as delay } from 'node:timers/promises';
import type { Clock } from '../model/clock.js';

/** Wall-clock time and real sleeps: the clock of every run and reference provider not handed another. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: async (ms, signal) => {
    try {
      await delay(Math.max(0, ms), undefined, signal ? { signal } : undefined);
    } catch {
      // Aborted: the run is ending; the caller sees the signal.
    }
  },
};
