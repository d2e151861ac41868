import { parseCheckIds } from '../checks/framework/registry.js';
import { loadContract } from '../contract/load.js';
import type { CheckId } from '../model/check-ids.js';
import {
  AUTH_METHODS,
  type AuthMethod,
  DEFAULT_CREDENTIAL_ENV,
  DEFAULT_WEBHOOK_SECRET_ENV,
  PROFILES,
  type Profile,
} from '../model/contract-constants.js';
import { UsageError } from '../model/errors.js';
import type { CheckResult, RunReport } from '../model/report.js';
import { type RunSecrets, type RunValues, resolveRunConfig } from '../model/run-values.js';
import type { SettingName, SpellSetting } from '../model/setting-speller.js';
import type { ExpectedFailure } from '../model/waivers.js';
import { runCertification } from '../runner/run.js';
import { parseExpectedFailures } from '../util/expected-failures.js';

/** One certification run, as `provcert run` takes it, with the secrets as values instead of variable names. */
export interface CertifyOptions {
  /** The provider's API base address, e.g. http://127.0.0.1:4010 (plain http needs `local: true`). */
  baseUrl: string;
  auth: AuthMethod;
  /** The API key, bearer token or HMAC secret provcert authenticates with. */
  credential: string;
  /** The secret the provider signs its status webhooks with. */
  webhookSecret: string;
  /** A provider on this machine (plain http allowed), as `--local`. Default false. */
  local?: boolean;
  /** Where the embedded receiver listens; the provider posts to http://HOST:PORT/api/v1/webhooks/<slug>. */
  webhookHost?: string;
  /** Default 8787; 0 picks a free port (then only a provider told the address at run time can post to it). */
  webhookPort?: number;
  profile?: Profile;
  capabilities?: string[];
  fulfillment?: string;
  /** Run only these checks (ids as `provcert list` shows them). */
  only?: CheckId[];
  skip?: CheckId[];
  strict?: boolean;
  timeoutMs?: number;
  webhookTimeoutMs?: number;
  maxExpiryWaitS?: number;
  concurrency?: number;
  seed?: string;
  /** Stops the run early (AbortController.abort()); the report of what ran is still returned. */
  signal?: AbortSignal;
  /** Called as each check ends, e.g. to log progress. */
  onCheckEnd?: (result: CheckResult) => void;
  /**
   * The variable names the report's reproduce commands read the secrets from (default PROVIDER_API_KEY and
   * SERVICE_WEBHOOK_SECRET): the report never holds the values.
   */
  credentialEnv?: string;
  webhookSecretEnv?: string;
  /**
   * Known failures the verdict lives with until a date, as a config file's `expectedFailures`: judged as `run`
   * judges them (the report's `waivers` says what became of each).
   */
  expectedFailures?: ExpectedFailure[];
}

function checked(options: CertifyOptions): void {
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

/** The library's options are typed already: checked above, they are one source of resolveRunConfig. */
function runValues(options: CertifyOptions): RunValues {
  const given: RunValues = {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    auth: options.auth,
    ...(options.profile ? { profile: options.profile } : {}),
    ...(options.capabilities ? { capabilities: options.capabilities } : {}),
    ...(options.fulfillment ? { fulfillment: options.fulfillment } : {}),
    ...(options.local !== undefined ? { local: options.local === true } : {}),
    ...(options.webhookHost !== undefined ? { webhookHost: options.webhookHost } : {}),
    ...(options.webhookPort !== undefined ? { webhookPort: options.webhookPort } : {}),
    ...(options.webhookTimeoutMs !== undefined ? { webhookTimeout: options.webhookTimeoutMs } : {}),
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    ...(options.maxExpiryWaitS !== undefined ? { maxExpiryWait: options.maxExpiryWaitS } : {}),
    ...(options.only ? { only: options.only } : {}),
    ...(options.skip ? { skip: options.skip } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.strict ? { strict: true } : {}),
  };
  return given;
}

/** The secrets are the caller's values; the report names only the variables its reproduce commands read them from. */
const secretsOf = (options: CertifyOptions): RunSecrets => ({
  credential: options.credential,
  credentialSource: { kind: 'env', name: options.credentialEnv ?? DEFAULT_CREDENTIAL_ENV },
  webhookSecret: options.webhookSecret,
  webhookSecretSource: { kind: 'env', name: options.webhookSecretEnv ?? DEFAULT_WEBHOOK_SECRET_ENV },
});

/** The options of certify() whose names differ from the config file's keys (the unit is in the name). */
const OPTION_NAMES: Partial<Record<SettingName, keyof CertifyOptions>> = {
  timeout: 'timeoutMs',
  webhookTimeout: 'webhookTimeoutMs',
  maxExpiryWait: 'maxExpiryWaitS',
};

/** Advice in findings, as a caller of certify() writes it: `maxExpiryWaitS: 130`, `local`. */
const spellAsOption: SpellSetting = (setting, value) => {
  const name = OPTION_NAMES[setting] ?? setting;
  return value === undefined ? `the ${name} option` : `${name}: ${value}`;
};

/**
 * Certify a provider in-process, as `provcert run` does, and return the run report (the JSON report's shape;
 * `report.verdict` is PASS, FAIL, INCOMPLETE when a rule could not be tested within the run's limits, PARTIAL
 * or INTERRUPTED; only PASS certifies). Provider faults are findings in the report, never exceptions; only unusable
 * options (a UsageError) and an occupied webhook port reject.
 */
export async function certify(options: CertifyOptions): Promise<RunReport> {
  checked(options);
  const expectedFailures = parseExpectedFailures(options.expectedFailures, 'certify()');
  const contract = await loadContract();
  const { config, credential, webhookSecret } = resolveRunConfig({ flags: runValues(options) }, secretsOf(options));
  return runCertification(config, {
    contract,
    expectedFailures,
    credential,
    webhookSecret,
    spell: spellAsOption,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onCheckEnd ? { hooks: { onCheckEnd: options.onCheckEnd } } : {}),
  });
}
