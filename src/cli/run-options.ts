import { randomBytes } from 'node:crypto';
import { CHECKS, parseCheckIds } from '../checks/framework/registry.js';
import type { RawRunOptions } from '../config/flags.js';
import { credentialDiagnosis } from '../doctor/auth.js';
import type { CheckId } from '../model/check-ids.js';
import {
  DEFAULT_CREDENTIAL_ENV,
  DEFAULT_WEBHOOK_SECRET_ENV,
  PROFILES,
  type Profile,
} from '../model/contract-constants.js';
import { UsageError } from '../model/errors.js';
import { DEFAULT_RUN_CONFIG, type RunConfig } from '../model/run-config.js';
import { didYouMean } from '../util/did-you-mean.js';
import { parseAuthFlag, parseBaseUrlFlag, parseIntegerFlag, readCredentialFile } from './options.js';

export interface ResolvedRun {
  config: RunConfig;
  credential: string;
  webhookSecret: string;
  /** Set when the secret was generated: the one time it is shown, so the provider can be configured. */
  generatedSecret: boolean;
}

function checkIds(flag: string, value: string | undefined): CheckId[] | undefined {
  if (value === undefined) return undefined;
  const { ids, unknown } = parseCheckIds(value);
  if (unknown.length === 0) return ids;
  const known = CHECKS.map((c) => c.id);
  const named = unknown.map((u) => `"${u}"${didYouMean(u, known)}`).join(', ');
  throw new UsageError(`--${flag}: unknown check id ${named}; known ids: ${known.join(', ')}`);
}

/** Whitespace around the credential fails here exactly as it fails `provcert doctor` (same check, same words). */
function refuseStrayWhitespace(credential: string, source: string): void {
  const judged = credentialDiagnosis({ value: credential, source });
  if (judged.status === 'fail') throw new UsageError(judged.detail, judged.fix);
}

function readCredential(
  raw: RawRunOptions,
  env: NodeJS.ProcessEnv,
  cwd: string,
): { credential: string; source: RunConfig['credentialSource'] } {
  if (raw.credentialFile) {
    const { value: credential, path } = readCredentialFile(raw.credentialFile, cwd);
    refuseStrayWhitespace(credential, `the file ${raw.credentialFile}`);
    return { credential, source: { kind: 'file', path } };
  }
  const name = raw.credentialEnv ?? DEFAULT_CREDENTIAL_ENV;
  const credential = env[name];
  if (!credential)
    throw new UsageError(
      `missing credential: the environment variable ${name} is not set`,
      `set ${name}, or pass --credential-env NAME or --credential-file PATH`,
    );
  refuseStrayWhitespace(credential, name);
  return { credential, source: { kind: 'env', name } };
}

/** Flags + environment → a complete RunConfig. Every problem is a UsageError (exit 2) naming the flag. */
export function resolveRunOptions(raw: RawRunOptions, env: NodeJS.ProcessEnv, cwd: string): ResolvedRun {
  const baseUrl = parseBaseUrlFlag(raw.baseUrl, raw.local === true);
  const authMethod = parseAuthFlag(raw.auth);
  let profile: Profile | undefined;
  if (raw.profile) {
    profile = PROFILES.find((p) => p === raw.profile?.toUpperCase());
    if (!profile) throw new UsageError(`--profile must be ${PROFILES.join(' or ')} (got "${raw.profile}")`);
  }
  const { credential, source } = readCredential(raw, env, cwd);
  const secretEnv = raw.webhookSecretEnv ?? DEFAULT_WEBHOOK_SECRET_ENV;
  const fromEnv = env[secretEnv];
  const webhookSecret = fromEnv || randomBytes(24).toString('hex');

  const config: RunConfig = {
    baseUrl,
    authMethod,
    credentialSource: source,
    ...(profile ? { profile } : {}),
    ...(raw.capabilities
      ? {
          capabilities: raw.capabilities
            .split(',')
            .map((c) => c.trim().toUpperCase())
            .filter(Boolean),
        }
      : {}),
    ...(raw.fulfillment ? { fulfillment: raw.fulfillment.toUpperCase() } : {}),
    local: raw.local === true,
    webhookHost: raw.webhookHost ?? DEFAULT_RUN_CONFIG.webhookHost,
    webhookPort: parseIntegerFlag('--webhook-port', raw.webhookPort, DEFAULT_RUN_CONFIG.webhookPort, 0, 65535),
    webhookSecretSource: fromEnv ? { kind: 'env', name: secretEnv } : { kind: 'generated' },
    webhookTimeoutMs: parseIntegerFlag(
      '--webhook-timeout',
      raw.webhookTimeout,
      DEFAULT_RUN_CONFIG.webhookTimeoutMs,
      100,
      600_000,
    ),
    timeoutMs: parseIntegerFlag('--timeout', raw.timeout, DEFAULT_RUN_CONFIG.timeoutMs, 100, 600_000),
    maxExpiryWaitS: parseIntegerFlag(
      '--max-expiry-wait',
      raw.maxExpiryWait,
      DEFAULT_RUN_CONFIG.maxExpiryWaitS,
      1,
      3600,
    ),
    ...(raw.only ? { only: checkIds('only', raw.only) as CheckId[] } : {}),
    ...(raw.skip ? { skip: checkIds('skip', raw.skip) as CheckId[] } : {}),
    seed: raw.seed ?? randomBytes(4).toString('hex'),
    ...(raw.explore !== undefined ? { explore: parseIntegerFlag('--explore', raw.explore, 100, 0, 10_000) } : {}),
    maxBodyBytes: DEFAULT_RUN_CONFIG.maxBodyBytes,
    concurrency: parseIntegerFlag('--concurrency', raw.concurrency, DEFAULT_RUN_CONFIG.concurrency, 1, 64),
    ...(raw.strict ? { strict: true } : {}),
  };
  return { config, credential, webhookSecret, generatedSecret: !fromEnv };
}
