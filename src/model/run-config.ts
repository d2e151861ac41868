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

const FRONT_END: ReadonlySet<string> = new Set(FRONT_END_SETTINGS);

/** The settings the run uses itself, without the front ends' own (the secrets' sources, the reports). */
export function withoutFrontEndSettings<T extends object>(values: T): Omit<T, FrontEndSetting> {
  return Object.fromEntries(Object.entries(values).filter(([key]) => !FRONT_END.has(key))) as Omit<T, FrontEndSetting>;
}

/**
 * The run configuration's defaults: spec/config.schema.json's (generated), and the body limit no source sets.
 * `run`, `demo`, `replay`, `batch`, `serve`'s certify route and the library take them from here.
 */
export const DEFAULT_RUN_CONFIG = {
  ...withoutFrontEndSettings(RUN_SETTING_DEFAULTS),
  maxBodyBytes: 5 * 1024 * 1024,
} as const satisfies Partial<RunConfig>;
