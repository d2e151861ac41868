import { RUN_SETTING_DEFAULTS, type RunSettings } from './generated/run-settings.js';
import type { FileReporterName } from './reporter-names.js';

/**
 * The settings a front end uses itself and the run never sees: where the secrets come from (read by the front end,
 * handed in as values) and where the reports go.
 */
export const FRONT_END_SETTINGS = [
  'credentialEnv',
  'credentialFile',
  'webhookSecretEnv',
  'json',
  'junit',
  'markdown',
  'html',
  'reporter',
] as const satisfies readonly (keyof RunSettings)[];
type FrontEndSetting = (typeof FRONT_END_SETTINGS)[number] | FileReporterName;

/** Settings every run has a value for: required by resolveRunConfig, a default, or drawn (the seed). */
type AlwaysSet =
  | 'baseUrl'
  | 'auth'
  | 'local'
  | 'webhookHost'
  | 'webhookPort'
  | 'webhookTimeout'
  | 'timeout'
  | 'maxExpiryWait'
  | 'seed'
  | 'concurrency';

/**
 * Fully resolved options of one certification run (flags > environment > config file > defaults): every run setting
 * of spec/config.schema.json under its one name (generated `RunSettings`), less the front ends' own, plus what the
 * front end hands in. A setting added to the schema is a field here with no edit.
 */
export interface RunConfig
  extends Omit<RunSettings, FrontEndSetting | AlwaysSet>,
    Required<Pick<RunSettings, AlwaysSet>> {
  /** Where the credential came from, for reports and reproduce commands (never the value). */
  credentialSource: { kind: 'env'; name: string } | { kind: 'file'; path: string };
  webhookSecretSource: { kind: 'env'; name: string } | { kind: 'generated' };
  maxBodyBytes: number;
}

/** Generated orders quote-explore sends when the run sets no explore budget (`RunConfig.explore` undefined). */
export const DEFAULT_EXPLORE_BUDGET = RUN_SETTING_DEFAULTS.explore;

/**
 * The run configuration's defaults: spec/config.schema.json's (generated), and the body limit no source sets.
 * `run`, `demo`, `replay`, `batch`, `serve`'s certify route and the library take them from here.
 */
export const DEFAULT_RUN_CONFIG = {
  local: RUN_SETTING_DEFAULTS.local,
  webhookHost: RUN_SETTING_DEFAULTS.webhookHost,
  webhookPort: RUN_SETTING_DEFAULTS.webhookPort,
  webhookTimeout: RUN_SETTING_DEFAULTS.webhookTimeout,
  timeout: RUN_SETTING_DEFAULTS.timeout,
  maxExpiryWait: RUN_SETTING_DEFAULTS.maxExpiryWait,
  maxBodyBytes: 5 * 1024 * 1024,
  concurrency: RUN_SETTING_DEFAULTS.concurrency,
  strict: RUN_SETTING_DEFAULTS.strict,
} as const satisfies Partial<RunConfig>;
