import { RUN_SETTING_KEYS } from './generated/run-settings.js';
import { DEFAULT_EXPLORE_BUDGET, FRONT_END_SETTINGS, type RunConfig } from './run-config.js';

/** The settings a run uses itself (every setting of spec/config.schema.json but the front ends' own). */
export type RunConfigSetting = Exclude<(typeof RUN_SETTING_KEYS)[number], (typeof FRONT_END_SETTINGS)[number]>;

const frontEnd: readonly string[] = FRONT_END_SETTINGS;
export const RUN_CONFIG_SETTINGS = RUN_SETTING_KEYS.filter((key) => !frontEnd.includes(key)) as RunConfigSetting[];

/**
 * A report's `inputs`: everything that makes a rerun the same run (provcert replay), each setting under its one
 * name (null when the run left it unset), secrets only by the name of their source.
 */
export type RunInputs = { [K in RunConfigSetting]: Exclude<RunConfig[K], undefined> | null } & {
  credentialSource: RunConfig['credentialSource'];
  runId: string;
  idempotencyKeys: string;
};

/** The run's inputs as its report records them. */
export function recordRunInputs(config: RunConfig, runId: string): RunInputs {
  const settings = Object.fromEntries(RUN_CONFIG_SETTINGS.map((key) => [key, config[key] ?? null]));
  return {
    ...(settings as { [K in RunConfigSetting]: Exclude<RunConfig[K], undefined> | null }),
    credentialSource: config.credentialSource,
    strict: config.strict === true,
    // The seed repeats the explored orders only with the same budget: recorded as the check used it.
    explore: config.explore ?? DEFAULT_EXPLORE_BUDGET,
    runId,
    idempotencyKeys: 'provcert-{seed}-{runId}-{label}',
  };
}

/** The names reports written before the settings had one name each gave them (provcert 0.1). */
const RECORDED_BEFORE: Readonly<Record<string, RunConfigSetting>> = {
  authMethod: 'auth',
  timeoutMs: 'timeout',
  webhookTimeoutMs: 'webhookTimeout',
  maxExpiryWaitS: 'maxExpiryWait',
};

/**
 * The one reader of a stored report's `inputs`, old or new: an older report's names are read as the settings' names
 * (`timeoutMs` → `timeout`), a name it also has under the new spelling keeps the new one. Values stay as recorded:
 * a stored report is untrusted, so its user checks them (replay, as flags).
 */
export function readRecordedInputs(inputs: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  const read: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(inputs ?? {})) {
    const name = RECORDED_BEFORE[key];
    if (name === undefined) read[key] = value;
    else if (inputs?.[name] === undefined) read[name] = value;
  }
  return read;
}
