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

export interface WindowOptions<I, R, K> {
  inputs: readonly I[];
  /** What is known before any input has finished (for the explorer: no bound learnt yet). */
  initial: K;
  /** What a finished input adds to what is known; folded in input order, never in order of finishing. */
  learn: (known: K, result: R) => K;
  work: (input: I, index: number, known: K) => Promise<R>;
  stop: () => boolean;
  limit?: number;
}

/**
 * Like inPool, but input i starts only once every input up to i − limit has finished, and is given what exactly
 * those taught (`learn` folded in input order). So at most `limit` run at once, and what each input is given
 * depends on the earlier inputs' results, never on which answer came first: the same inputs and the same answers
 * give the same work on every run (DECISIONS.md, Exploration: the seed repeats the orders). `known` at the end
 * folds every finished input. A stalled input holds back the ones `limit` places after it.
 */
export async function inWindow<I, R, K>(
  options: WindowOptions<I, R, K>,
): Promise<{ results: (R | undefined)[]; known: K }> {
  const { inputs, learn, work, stop, limit = MAX_IN_FLIGHT } = options;
  const results: (R | undefined)[] = new Array(inputs.length).fill(undefined);
  const running: Promise<void>[] = [];
  let failure: { error: unknown } | undefined;
  let known = options.initial;
  let folded = 0;
  const foldNext = (): void => {
    known = learn(known, results[folded] as R);
    folded++;
  };
  for (let index = 0; index < inputs.length; index++) {
    if (index >= limit) {
      await running[index - limit];
      if (failure) break;
      foldNext();
    }
    if (stop()) break;
    running[index] = work(inputs[index] as I, index, known).then(
      (result) => {
        results[index] = result;
      },
      (error: unknown) => {
        failure ??= { error };
      },
    );
  }
  await Promise.all(running);
  if (failure) throw failure.error;
  while (folded < running.length) foldNext();
  return { results, known };
}
