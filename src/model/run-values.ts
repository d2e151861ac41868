import { randomBytes } from 'node:crypto';
import type { CheckId } from './check-ids.js';
import type { AuthMethod, Profile } from './contract-constants.js';
import { SettingError } from './errors.js';
import type { FileReporterName } from './reporter-names.js';
import { DEFAULT_RUN_CONFIG, type RunConfig } from './run-config.js';

/**
 * One source's run options, typed, keyed as spec/config.schema.json names them. Each source (flags, PROVCERT_*
 * environment, config file, a fleet entry, a replayed report, serve's registration, the library's options) is
 * parsed to these once, at its boundary, with errors naming the flag, the variable or the file; after that no
 * value changes form again.
 */
export type RunValues = {
  baseUrl?: string;
  auth?: AuthMethod;
  credentialEnv?: string;
  credentialFile?: string;
  profile?: Profile;
  capabilities?: string[];
  fulfillment?: string;
  local?: boolean;
  webhookPort?: number;
  webhookHost?: string;
  webhookSecretEnv?: string;
  webhookTimeout?: number;
  timeout?: number;
  maxExpiryWait?: number;
  only?: CheckId[];
  skip?: CheckId[];
  seed?: string;
  explore?: number;
  strict?: boolean;
  concurrency?: number;
  reporter?: string[];
} & { [name in FileReporterName]?: string };

/** The sources of a run's options, highest first: flags > environment > config file (> defaults). */
export interface RunSources {
  flags?: RunValues | undefined;
  env?: RunValues | undefined;
  file?: RunValues | undefined;
}

/** Where the credential comes from is one choice: a higher source setting either key replaces both below it. */
const CREDENTIAL_KEYS = ['credentialEnv', 'credentialFile'] as const;
const isCredentialKey = (key: string): boolean => (CREDENTIAL_KEYS as readonly string[]).includes(key);

/** Every key takes the first value set, flags first (Playwright's `takeFirst(cli, user, default)`), typed as it came. */
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

const upper = (values: readonly string[]): string[] => values.map((c) => c.trim().toUpperCase()).filter(Boolean);

/**
 * The one way a run's configuration is built (run, demo, replay, batch, serve's certify route, the library):
 * typed values merged key by key in a fixed order, flags > environment > config file > DEFAULT_RUN_CONFIG.
 */
export function resolveRunConfig(sources: RunSources, secrets: RunSecrets): ResolvedRun {
  const v = mergeRunValues(sources);
  if (v.baseUrl === undefined) throw new MissingSettingError('baseUrl');
  if (v.auth === undefined) throw new MissingSettingError('auth');
  const config: RunConfig = {
    baseUrl: v.baseUrl,
    authMethod: v.auth,
    credentialSource: secrets.credentialSource,
    ...(v.profile ? { profile: v.profile } : {}),
    ...(v.capabilities ? { capabilities: upper(v.capabilities) } : {}),
    ...(v.fulfillment ? { fulfillment: v.fulfillment.toUpperCase() } : {}),
    local: v.local ?? DEFAULT_RUN_CONFIG.local,
    webhookHost: v.webhookHost ?? DEFAULT_RUN_CONFIG.webhookHost,
    webhookPort: v.webhookPort ?? DEFAULT_RUN_CONFIG.webhookPort,
    webhookSecretSource: secrets.webhookSecretSource,
    webhookTimeoutMs: v.webhookTimeout ?? DEFAULT_RUN_CONFIG.webhookTimeoutMs,
    timeoutMs: v.timeout ?? DEFAULT_RUN_CONFIG.timeoutMs,
    maxExpiryWaitS: v.maxExpiryWait ?? DEFAULT_RUN_CONFIG.maxExpiryWaitS,
    ...(v.only ? { only: v.only } : {}),
    ...(v.skip ? { skip: v.skip } : {}),
    seed: v.seed ?? randomBytes(4).toString('hex'),
    ...(v.explore !== undefined ? { explore: v.explore } : {}),
    maxBodyBytes: DEFAULT_RUN_CONFIG.maxBodyBytes,
    concurrency: v.concurrency ?? DEFAULT_RUN_CONFIG.concurrency,
    ...(v.strict ? { strict: true } : {}),
  };
  return { config, credential: secrets.credential, webhookSecret: secrets.webhookSecret };
}
