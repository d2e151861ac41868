import { parseCheckIds } from '../checks/framework/registry.js';
import { loadContract } from '../contract/load.js';
import {
  AUTH_METHODS,
  type AuthMethod,
  DEFAULT_CREDENTIAL_ENV,
  DEFAULT_WEBHOOK_SECRET_ENV,
  PROFILES,
} from '../model/contract-constants.js';
import { UsageError } from '../model/errors.js';
import type { RunSettings } from '../model/generated/run-settings.js';
import type { RunReport } from '../model/report.js';
import type { RunEvents } from '../model/run-events.js';
import { RUN_CONFIG_SETTINGS, type RunConfigSetting } from '../model/run-inputs.js';
import { type ResolvedRun, type RunSecrets, type RunValues, resolveRunConfig } from '../model/run-values.js';
import type { ExpectedFailure } from '../model/waivers.js';
import { runCertification } from '../runner/run.js';
import { parseExpectedFailures } from '../util/expected-failures.js';
import { checkOptionTypes } from './certify-option-types.js';

/** The settings certify() takes under their config file names: every run setting, and the secrets' variable names. */
type LibrarySetting = RunConfigSetting | 'credentialEnv' | 'webhookSecretEnv';

/**
 * The library's old unit-suffixed names (provcert 0.1), each read as the setting it names for one more release:
 * certify() warns once per name and process.
 */
interface DeprecatedCertifyOptions {
  /** @deprecated Use `timeout` (milliseconds), the config file's name; removed in the next release. */
  timeoutMs?: number;
  /** @deprecated Use `webhookTimeout` (milliseconds), the config file's name; removed in the next release. */
  webhookTimeoutMs?: number;
  /** @deprecated Use `maxExpiryWait` (seconds), the config file's name; removed in the next release. */
  maxExpiryWaitS?: number;
}

const DEPRECATED_NAMES = {
  timeoutMs: 'timeout',
  webhookTimeoutMs: 'webhookTimeout',
  maxExpiryWaitS: 'maxExpiryWait',
} as const satisfies Record<keyof DeprecatedCertifyOptions, RunConfigSetting>;

/**
 * One certification run, as `provcert run` takes it: every run setting under its config file name (spec/config.schema.json,
 * typed by the generated `RunSettings`; `credentialEnv` and `webhookSecretEnv` name the variables the report's
 * reproduce commands read the secrets from, default PROVIDER_API_KEY and SERVICE_WEBHOOK_SECRET), with the secrets
 * as values instead.
 */
export interface CertifyOptions
  extends Omit<Pick<RunSettings, LibrarySetting>, 'baseUrl' | 'auth'>,
    DeprecatedCertifyOptions,
    Pick<RunEvents, 'onCheckEnd'> {
  /** The provider's API base address, e.g. http://127.0.0.1:4010 (plain http needs `local: true`). */
  baseUrl: string;
  auth: AuthMethod;
  /** The API key, bearer token or HMAC secret provcert authenticates with. */
  credential: string;
  /** The secret the provider signs its status webhooks with. */
  webhookSecret: string;
  /** Stops the run early (AbortController.abort()); the report of what ran is still returned. */
  signal?: AbortSignal;
  /**
   * Known failures the verdict lives with until a date, as a config file's `expectedFailures`: judged as `run`
   * judges them (the report's `waivers` says what became of each).
   */
  expectedFailures?: ExpectedFailure[];
}

function checked(options: CertifyOptions): void {
  checkOptionTypes(options);
  try {
    new URL(options.baseUrl);
  } catch {
    throw new UsageError(`certify: baseUrl "${options.baseUrl}" is not an absolute URL`);
  }
  if (!AUTH_METHODS.includes(options.auth))
    throw new UsageError(`certify: auth must be one of ${AUTH_METHODS.join(', ')} (got "${String(options.auth)}")`);
  if (options.profile !== undefined && !PROFILES.includes(options.profile))
    throw new UsageError(`certify: profile must be one of ${PROFILES.join(', ')} (got "${String(options.profile)}")`);
  for (const [name, value] of [
    ['credential', options.credential],
    ['webhookSecret', options.webhookSecret],
  ] as const) {
    if (typeof value !== 'string' || value.length === 0)
      throw new UsageError(`certify: ${name} must be a non-empty string`);
  }
  const unknown = parseCheckIds([...(options.only ?? []), ...(options.skip ?? [])].join(',')).unknown;
  if (unknown.length > 0) throw new UsageError(`certify: unknown check id ${unknown.join(', ')} (see provcert list)`);
}

const warned = new Set<string>();

/** An old name, read as its setting's; warned once per process (a new name given beside it wins). */
function deprecatedValues(options: CertifyOptions): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [old, name] of Object.entries(DEPRECATED_NAMES) as [keyof DeprecatedCertifyOptions, RunConfigSetting][]) {
    if (options[old] === undefined) continue;
    if (!warned.has(old)) {
      warned.add(old);
      process.emitWarning(`certify(): the option ${old} is deprecated; use ${name}`, {
        type: 'DeprecationWarning',
        code: 'PROVCERT_CERTIFY_OPTION',
      });
    }
    values[name] = options[old];
  }
  return values;
}

/** The library's options are typed already and named as the settings are: checked above, they are one source. */
function runValues(options: CertifyOptions): RunValues {
  const given: Record<string, unknown> = deprecatedValues(options);
  for (const key of RUN_CONFIG_SETTINGS) if (options[key] !== undefined) given[key] = options[key];
  return { ...(given as RunValues), baseUrl: options.baseUrl.replace(/\/+$/, ''), auth: options.auth };
}

/** The secrets are the caller's values; the report names only the variables its reproduce commands read them from. */
const secretsOf = (options: CertifyOptions): RunSecrets => ({
  credential: options.credential,
  credentialSource: { kind: 'env', name: options.credentialEnv ?? DEFAULT_CREDENTIAL_ENV },
  webhookSecret: options.webhookSecret,
  webhookSecretSource: { kind: 'env', name: options.webhookSecretEnv ?? DEFAULT_WEBHOOK_SECRET_ENV },
});

/** certify()'s options → the run, as every front end builds it (resolveRunConfig); unusable options are a UsageError. */
export function resolveCertifyOptions(options: CertifyOptions): ResolvedRun {
  checked(options);
  return resolveRunConfig(runValues(options), secretsOf(options));
}

/**
 * Certify a provider in-process, as `provcert run` does, and return the run report (the JSON report's shape;
 * `report.verdict` is PASS, FAIL, INCOMPLETE when a rule could not be tested within the run's limits, PARTIAL
 * or INTERRUPTED; only PASS certifies). Provider faults are findings in the report, never exceptions; only unusable
 * options (a UsageError) and an occupied webhook port reject.
 */
export async function certify(options: CertifyOptions): Promise<RunReport> {
  const { config, credential, webhookSecret } = resolveCertifyOptions(options);
  const expectedFailures = parseExpectedFailures(options.expectedFailures, 'certify()');
  const contract = await loadContract();
  return runCertification(config, {
    contract,
    expectedFailures,
    credential,
    webhookSecret,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onCheckEnd ? { hooks: { onCheckEnd: options.onCheckEnd } } : {}),
  });
}
