import { closeSync, openSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../model/errors.js';
import { folderProblem, makeParentFolders } from '../util/parent-folders.js';

/** Where event lines go. Writing never throws: a sink that fails stops and says why once. */
export interface EventSink {
  write(line: string): void;
  close(): void;
}

const errnoCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? 'error';

/**
 * Standard output: one write per line, as the line is made. A reader that went away (EPIPE) stops the stream;
 * the run goes on. The error listener stays: a write still in flight may fail after close.
 */
export function stdoutSink(stdout: NodeJS.WritableStream, onBroken: (reason: string) => void): EventSink {
  let open = true;
  const stop = (reason: string): void => {
    if (!open) return;
    open = false;
    onBroken(reason);
  };
  stdout.on('error', (error: unknown) => stop(errnoCode(error)));
  return {
    write(line) {
      if (!open) return;
      try {
        stdout.write(line);
      } catch (error) {
        stop(errnoCode(error));
      }
    },
    close() {
      open = false;
    },
  };
}

/**
 * A file, created (or emptied) now so an unusable path is a usage error before the run sends anything. Lines are
 * written synchronously: a dashboard tailing the file sees each one at once, in order.
 */
export async function fileSink(path: string, cwd: string, onBroken: (reason: string) => void): Promise<EventSink> {
  const absolute = resolve(cwd, path);
  const unusable = (reason: string): UsageError =>
    new UsageError(`cannot write the event stream to ${path}: ${reason}`);
  try {
    await makeParentFolders(absolute);
  } catch (error) {
    throw unusable(folderProblem(error));
  }
  let fd: number | undefined;
  try {
    fd = openSync(absolute, 'w');
  } catch (error) {
    const code = errnoCode(error);
    throw unusable(code === 'EISDIR' ? 'it is a directory; name a file inside it' : `it cannot be written (${code})`);
  }
  /** Closes the file once; false when it was closed already. A failing close loses nothing: writes are synchronous. */
  const release = (): boolean => {
    if (fd === undefined) return false;
    const closing = fd;
    fd = undefined;
    try {
      closeSync(closing);
    } catch {
      // Every line was written synchronously (or the stream is already failing and says so).
    }
    return true;
  };
  const stop = (reason: string): void => {
    if (release()) onBroken(reason);
  };
  return {
    write(line) {
      if (fd === undefined) return;
      const bytes = Buffer.from(line, 'utf8');
      try {
        // A pipe (FIFO) may take a line in pieces.
        for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
      } catch (error) {
        stop(errnoCode(error));
      }
    },
    close() {
      release();
    },
  };
}
