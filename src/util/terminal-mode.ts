/** How live output looks on a stream: colour and a status line, decided once from the stream and the environment. */

type Env = Readonly<Record<string, string | undefined>>;

const isSet = (value: string | undefined): boolean =>
  value !== undefined && value !== '' && value !== '0' && value !== 'false';

/**
 * Whether the stream reports a usable width. A terminal can say isTTY yet have no width (some CI pseudo-terminals,
 * a resized window): the spinner divides by the width and would clear lines forever.
 */
export const hasWidth = (stream: { columns?: number }): boolean =>
  typeof stream.columns === 'number' && stream.columns > 0;

export interface TerminalMode {
  color: boolean;
  /** A status line redrawn in place (spinner); otherwise plain lines. */
  spinner: boolean;
}

/**
 * The one decision of how live output looks on a stream. Plain (no colour, no spinner) with --no-color,
 * NO_COLOR, CI (unless "0"/"false"), TERM=dumb, or when the stream is not a terminal. FORCE_COLOR forces
 * colour (as in Node itself) but never a spinner; --no-color beats it. A spinner also needs a terminal
 * that reports a positive width.
 */
export function terminalMode(
  stream: { isTTY?: boolean; columns?: number },
  env: Env,
  options: { noColor?: boolean } = {},
): TerminalMode {
  const plain = options.noColor === true || isSet(env['NO_COLOR']) || isSet(env['CI']) || env['TERM'] === 'dumb';
  const force = env['FORCE_COLOR'];
  const tty = stream.isTTY === true;
  const color =
    options.noColor === true ? false : force !== undefined ? force !== '0' && force !== 'false' : tty && !plain;
  return { color, spinner: tty && hasWidth(stream) && !plain };
}

/** terminalMode's colour decision (for outputs without a status line: replay, report). */
export const shouldUseColor = (stream: { isTTY?: boolean }, env: Env, options: { noColor?: boolean } = {}): boolean =>
  terminalMode(stream, env, options).color;

/** terminalMode's spinner decision. */
export const shouldBeInteractive = (stream: { isTTY?: boolean; columns?: number }, env: Env): boolean =>
  terminalMode(stream, env).spinner;
