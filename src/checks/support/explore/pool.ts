/** At most this many exploration requests in flight (DECISIONS.md, Exploration). */
export const MAX_IN_FLIGHT = 4;

/**
 * Run `work` over `inputs` with at most `limit` at once, in input order of starting; stops starting new work once
 * `stop()` says so (time cap, interrupt). Results keep their input index; inputs never started are absent.
 */
export async function inPool<I, R>(
  inputs: readonly I[],
  work: (input: I, index: number) => Promise<R>,
  stop: () => boolean,
  limit = MAX_IN_FLIGHT,
): Promise<(R | undefined)[]> {
  const results: (R | undefined)[] = new Array(inputs.length).fill(undefined);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < inputs.length && !stop()) {
      const index = next++;
      results[index] = await work(inputs[index] as I, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, inputs.length) }, worker));
  return results;
}

/**
 * How many places after an input what it taught is given on. Four times MAX_IN_FLIGHT: an input rarely waits for
 * one that far back, so a slow answer seldom holds the others up (simulated with exponential answer times: 98 % of
 * inPool's rate, against 58 % when only MAX_IN_FLIGHT places back).
 */
export const LEARNING_LAG = 4 * MAX_IN_FLIGHT;

export interface WindowOptions<I, R, K> {
  inputs: readonly I[];
  /** What is known before any input has finished (for the explorer: no bound learnt yet). */
  initial: K;
  /** What a finished input adds to what is known; folded in input order, never in order of finishing. */
  learn: (known: K, result: R) => K;
  work: (input: I, index: number, known: K) => Promise<R>;
  stop: () => boolean;
  limit?: number;
  lag?: number;
}

/**
 * Like inPool (at most `limit` at once, started in input order), but input i is given what exactly the inputs up to
 * i − lag taught (`learn` folded in input order), and waits for them to finish if they have not. What each input
 * is given then depends on the earlier inputs' results, never on which answer came first: the same inputs and the
 * same answers give the same work on every run (docs/decisions.md, Exploration: the seed repeats the orders). `known`
 * at the end folds every finished input.
 */
export async function inWindow<I, R, K>(
  options: WindowOptions<I, R, K>,
): Promise<{ results: (R | undefined)[]; known: K }> {
  const { inputs, learn, work, stop, limit = MAX_IN_FLIGHT, lag = LEARNING_LAG } = options;
  const results: (R | undefined)[] = new Array(inputs.length).fill(undefined);
  const running: Promise<void>[] = [];
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  let known = options.initial;
  let folded = 0;
  const foldNext = (): void => {
    known = learn(known, results[folded] as R);
    folded++;
  };
  for (let index = 0; index < inputs.length && !failure; index++) {
    while (folded <= index - lag && !failure) {
      await running[folded];
      if (!failure) foldNext();
    }
    while (inFlight.size >= limit) await Promise.race(inFlight);
    if (failure || stop()) break;
    const done: Promise<void> = work(inputs[index] as I, index, known).then(
      (result) => {
        results[index] = result;
      },
      (error: unknown) => {
        failure ??= { error };
      },
    );
    running[index] = done;
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  }
  await Promise.all(running);
  if (failure) throw failure.error;
  while (folded < running.length) foldNext();
  return { results, known };
}
