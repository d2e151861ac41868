/**
 * How many ajv errors one validation keeps. The rest are counted, not kept: a hostile answer of 3 million
 * empty objects must not allocate 15 million error objects, and ajv's own merging of a called validator's
 * errors (`vErrors.concat(...)`) copies the whole list on every call, which makes validation quadratic in
 * the number of errors (20,000 empty offerings took 7 s).
 */
export const MAX_COLLECTED_ERRORS = 1000;

/**
 * After this many errors of its own, a loop over an array stops: 5 MB of `{}` is 1.7 million items, and
 * checking every one of them would block the process (and Ctrl-C) for seconds to say nothing new.
 */
export const MAX_COUNTED_ERRORS = 1_000_000;

/** What a validator rewritten by `capCollectedErrors` sets besides `errors`: the true number of errors. */
export interface CountedErrors {
  errorCount?: number;
}

const CHILD_MERGE =
  /vErrors\s*=\s*vErrors\s*===\s*null\s*\?\s*(\w+)\.errors\s*:\s*vErrors\.concat\(\1\.errors\);\s*errors\s*=\s*vErrors\.length;/g;
const OWN_PUSH = /vErrors\.push\((\w+)\);/g;
const TRUNCATE = /vErrors\.length\s*=\s*(\w+);/g;
const PUBLISH = /(\w+)\.errors\s*=\s*vErrors;/g;
const ARRAY_LOOP = /for\s*\(\s*let\s+(\w+)\s*=\s*0\s*;\s*\1\s*<\s*(\w+)\s*;\s*\1\+\+\s*\)/g;

/**
 * Rewrite ajv-generated validator code (run-time `code.process` and the standalone module alike) so that
 * it keeps at most MAX_COLLECTED_ERRORS errors, merges a called validator's errors in place (linear), and
 * publishes the true count as `errorCount` (a lower bound once a loop stopped at MAX_COUNTED_ERRORS). `errors` keeps counting every error: ajv decides whether a
 * branch of anyOf/oneOf passed by comparing it, so validity never depends on the cap.
 * Throws when ajv's code no longer has the shape this expects (an ajv upgrade), so the build fails loudly.
 */
export function capCollectedErrors(
  code: string,
  limits: { kept: number; counted: number } = { kept: MAX_COLLECTED_ERRORS, counted: MAX_COUNTED_ERRORS },
): string {
  const cap = String(limits.kept);
  let merges = 0;
  let publishes = 0;
  const counted = String(limits.counted);
  const out = code
    .replace(CHILD_MERGE, (_m, child: string) => {
      merges++;
      return (
        `if (vErrors === null) vErrors = ${child}.errors.slice(0, ${cap}); ` +
        `else for (const e of ${child}.errors) { if (vErrors.length >= ${cap}) break; vErrors.push(e); } ` +
        `errors += ${child}.errorCount ?? ${child}.errors.length;`
      );
    })
    .replace(OWN_PUSH, (_m, err: string) => `if (vErrors.length < ${cap}) vErrors.push(${err});`)
    .replace(TRUNCATE, (_m, mark: string) => `if (vErrors.length > ${mark}) vErrors.length = ${mark};`)
    // Relative to the count when the loop starts: only errors this loop added stop it, so a branch of an
    // anyOf that follows a failed one is still checked in full, and validity never depends on the stop.
    .replace(
      ARRAY_LOOP,
      (_m, i: string, len: string) =>
        `for (let ${i} = 0, ${i}_stop = errors + ${counted}; ${i} < ${len} && errors < ${i}_stop; ${i}++)`,
    )
    .replace(PUBLISH, (_m, self: string) => {
      publishes++;
      return `${self}.errors = vErrors; ${self}.errorCount = errors;`;
    });
  if (code.includes('vErrors.concat(') && merges === 0)
    throw new Error('ajv merges errors in an unexpected shape; update src/contract/error-cap.ts');
  if (code.includes('vErrors') && publishes === 0)
    throw new Error('ajv publishes errors in an unexpected shape; update src/contract/error-cap.ts');
  return out;
}
