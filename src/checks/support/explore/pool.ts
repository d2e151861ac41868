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
