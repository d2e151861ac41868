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

/**
 * Every problem of one input at once, so one round trip fixes them all: the first is the message (one clear line),
 * each other one a line of the hint. Each line names where it is (`provcert.config.yaml:3: /timeout …`).
 */
export function problemsError(problems: readonly string[], whole: string): UsageError {
  const [first = `${whole}: is invalid`, ...rest] = problems;
  return new UsageError(first, rest.length > 0 ? rest.join('\n  ') : undefined);
}

/**
 * A setting's value is unusable (a port in use, a split that differs). Raised below the cli with the setting's name
 * (`webhookPort`, `port`); the cli names it as its users type it (`--webhook-port`), the library as is.
 */
export class SettingError extends UsageError {
  constructor(
    readonly setting: string,
    private readonly describe: (name: string) => string,
    hint?: string,
  ) {
    super(describe(setting), hint);
  }

  /** The message with the setting named another way, e.g. as its flag. */
  namedAs(name: string): string {
    return this.describe(name);
  }
}
