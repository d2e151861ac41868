import type { FileReporterName } from '../model/reporter-names.js';

/**
 * The `run` options as commander hands them over (strings), parsed and checked once by cli/run-flags.ts. An option
 * added to spec/config.schema.json needs no field here: commander hands it over by its name all the same.
 */
export interface RawRunOptions {
  baseUrl?: string;
  auth?: string;
  credentialEnv?: string;
  credentialFile?: string;
  profile?: string;
  capabilities?: string;
  fulfillment?: string;
  local?: boolean;
  webhookPort?: string;
  webhookHost?: string;
  webhookSecretEnv?: string;
  webhookTimeout?: string;
  timeout?: string;
  maxExpiryWait?: string;
  only?: string;
  skip?: string;
  seed?: string;
  explore?: string;
  strict?: boolean;
  concurrency?: string;
}

/** A file option per file reporter (`--json <file>`, …; src/report/reporters.ts), and --reporter's list of names. */
export type ReportFlags = { [name in FileReporterName]?: string } & { reporter?: string };
