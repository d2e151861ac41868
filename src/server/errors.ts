import { UsageError } from '../model/errors.js';

/** The listen address is taken; the message names the flag to change it (printed without a stack). */
export class PortInUseError extends UsageError {
  constructor(
    readonly port: number,
    portFlag: string,
  ) {
    super(`port ${port} is in use; pass ${portFlag} with a free port (0 picks one)`);
  }
}

/** Listening failed for another reason (permission, bad host…). */
export class ListenError extends UsageError {
  constructor(host: string, port: number, code: string) {
    super(`cannot listen on ${host}:${port} (${code})`);
  }
}
