import { setTimeout as delay } from 'node:timers/promises';
import type { Clock } from '../checks/framework/types.js';

/** Wall-clock time (epoch ms, comparable with expiresAt) and cancellable sleeps. */
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
