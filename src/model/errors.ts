/**
 * An error the user can act on: printed as its message alone (no stack), exit code 2.
 * Anything else that escapes is a bug and is printed as such.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}
