/** Errors cross module boundaries as values. */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });

/**
 * An error the user can act on: printed as its message alone (no stack), exit code 2.
 * Anything else that escapes is a bug and is printed as such.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(message: string, readonly hint?: string) {
    super(message);
  }
}
