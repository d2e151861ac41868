import ora from 'ora';
import { hasWidth } from '../util/terminal-mode.js';

/** A stream the status line draws on: a terminal reports its width and emits 'resize'. */
export type StatusStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/** The one line at the bottom of a terminal that is redrawn in place (a spinner and what the run is doing). */
export interface StatusLine {
  /** False once the terminal lost its width: the caller prints plain lines instead. */
  readonly usable: boolean;
  /** Show this text; undefined removes the line. */
  show(text: string | undefined): void;
  /** Write lines above the status line. */
  printAbove(write: () => void): void;
  close(): void;
}

export function createStatusLine(stream: StatusStream, color: boolean): StatusLine {
  const spinner = ora({ stream, isEnabled: true, discardStdin: false, color: color ? 'cyan' : false });
  let usable = hasWidth(stream);
  let text: string | undefined;
  // Stopping a spinner that is not spinning still writes cursor codes: only stop a running one.
  const halt = (): void => {
    if (spinner.isSpinning) spinner.stop();
  };
  const draw = (): void => {
    if (!usable || text === undefined) halt();
    else if (spinner.isSpinning) spinner.text = text;
    else spinner.start(text);
  };
  // A resize to no width stops the spinner before it draws again: 'resize' follows the new width at once.
  const onResize = (): void => {
    if (hasWidth(stream)) return;
    usable = false;
    halt();
  };
  stream.on('resize', onResize);
  return {
    get usable() {
      return usable;
    },
    show(next) {
      text = next;
      draw();
    },
    printAbove(write) {
      halt();
      write();
      draw();
    },
    close() {
      text = undefined;
      halt();
      stream.off('resize', onResize);
    },
  };
}
