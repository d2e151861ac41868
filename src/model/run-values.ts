import { randomBytes } from 'node:crypto';
import { SettingError } from './errors.js';
import type { RunSettings } from './generated/run-settings.js';
import { DEFAULT_RUN_CONFIG, type RunConfig, withoutFrontEndSettings } from './run-config.js';

/**
 * One source's run settings, typed, keyed as spec/config.schema.json names them (the generated `RunSettings`). Each
 * source (flags, PROVCERT_* environment, config file, a fleet entry, a replayed report, serve's registration, the
 * library's options) is parsed to these once, at its boundary, with errors naming the flag, the variable or the file;
 * after that no value changes form or name again.
 */
export type RunValues = RunSettings;

/** The sources of a run's options, highest first: flags > environment > config file (> the schema's defaults). */
export interface RunSources {
  flags?: RunValues | undefined;
  env?: RunValues | undefined;
  file?: RunValues | undefined;
}

/** Where the credential comes from is one choice: a higher source setting either key replaces both below it. */
const CREDENTIAL_KEYS = ['credentialEnv', 'credentialFile'] as const;
const isCredentialKey = (key: string): boolean => (CREDENTIAL_KEYS as readonly string[]).includes(key);

/**
 * Every key takes the first value set, flags first (Playwright's `takeFirst(cli, env, file)`; resolveRunConfig puts
 * the schema's defaults under the result), typed as it came: one rule for every setting, so none is named here. Each
 * front end merges once.
 */
export function mergeRunValues(sources: RunSources): RunValues {
  const layers = [sources.flags, sources.env, sources.file].filter((l): l is RunValues => l !== undefined);
  const merged: Record<string, unknown> = {};
  for (const key of new Set(layers.flatMap((layer) => Object.keys(layer)))) {
    if (isCredentialKey(key)) continue;
    const from = layers.find((layer) => (layer as Record<string, unknown>)[key] !== undefined);
    if (from) merged[key] = (from as Record<string, unknown>)[key];
  }
  const credentialLayer = layers.find((layer) => CREDENTIAL_KEYS.some((key) => layer[key] !== undefined));
  for (const key of CREDENTIAL_KEYS) if (credentialLayer?.[key] !== undefined) merged[key] = credentialLayer[key];
  return merged as RunValues;
}

/** The secrets, read by the caller (the CLI from the environment or a file, serve from its data dir, the library's caller). */
export interface RunSecrets {
  credential: string;
  credentialSource: RunConfig['credentialSource'];
  webhookSecret: string;
  webhookSecretSource: RunConfig['webhookSecretSource'];
}

/** A complete run: its configuration, and the secrets it authenticates and verifies with (never in the config). */
export interface ResolvedRun {
  config: RunConfig;
  credential: string;
  webhookSecret: string;
}

/** A setting a run cannot do without is unset in every source; the caller names it as its users know it (a flag). */
export class MissingSettingError extends SettingError {
  constructor(setting: 'baseUrl' | 'auth') {
    super(setting, (name) => `missing ${name}`);
  }
}

const upper = <T extends string>(values: readonly string[]): T[] =>
  values.map((c) => c.trim().toUpperCase()).filter(Boolean) as T[];

const definedOf = (values: RunValues): RunValues =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as RunValues;

/**
 * The one way a run's configuration is built (run, demo, replay, batch, serve's certify route, the library): the
 * front end's merged values (mergeRunValues: flags > environment > config file, merged once) over the schema's
 * defaults (DEFAULT_RUN_CONFIG), each setting keeping its name; what the run needs beyond them (the secrets' sources,
 * the body limit, a drawn seed) is added here.
 */
export function resolveRunConfig(values: RunValues, secrets: RunSecrets): ResolvedRun {
  const v = definedOf(values);
  const { baseUrl, auth } = v;
  if (baseUrl === undefined) throw new MissingSettingError('baseUrl');
  if (auth === undefined) throw new MissingSettingError('auth');
  const config: RunConfig = {
    ...DEFAULT_RUN_CONFIG,
    ...(withoutFrontEndSettings(v) as Partial<RunConfig>),
    baseUrl,
    auth,
    credentialSource: secrets.credentialSource,
    webhookSecretSource: secrets.webhookSecretSource,
    seed: v.seed ?? randomBytes(4).toString('hex'),
    // Settled here too: the library hands its lists in as its caller wrote them.
    ...(v.capabilities ? { capabilities: upper(v.capabilities) } : {}),
    ...(v.fulfillment ? { fulfillment: v.fulfillment.toUpperCase() as RunConfig['fulfillment'] } : {}),
  };
  return { config, credential: secrets.credential, webhookSecret: secrets.webhookSecret };
}
