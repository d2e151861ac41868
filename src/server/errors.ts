import { SettingError, UsageError } from '../model/errors.js';

/** The listen address is taken; the message names the setting to change (the cli names its flag), without a stack. */
export class PortInUseError extends SettingError {
  constructor(
    readonly port: number,
    setting: string,
  ) {
    super(setting, (name) => `port ${port} is in use; pass ${name} with a free port (0 picks one)`);
  }
}

/** Listening failed for another reason (permission, bad host…). */
export class ListenError extends UsageError {
  constructor(host: string, port: number, code: string) {
    super(`cannot listen on ${host}:${port} (${code})`);
  }
}
