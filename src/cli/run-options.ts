import { randomBytes } from 'node:crypto';
import { credentialDiagnosis } from '../doctor/auth.js';
import { nonPublicHostReason } from '../http/host.js';
import { DEFAULT_CREDENTIAL_ENV, DEFAULT_WEBHOOK_SECRET_ENV } from '../model/contract-constants.js';
import { UsageError } from '../model/errors.js';
import { type ResolvedRun, type RunSecrets, type RunValues, resolveRunConfig } from '../model/run-values.js';
import { parseAuthFlag, parseBaseUrlFlag, readCredentialFile } from './options.js';

export interface CliRun extends ResolvedRun {
  /** Set when the secret was generated: the one time it is shown, so the provider can be configured. */
  generatedSecret: boolean;
}

/** Whitespace around the credential fails here exactly as it fails `provcert doctor` (same check, same words). */
function refuseStrayWhitespace(credential: string, source: string): void {
  const judged = credentialDiagnosis({ value: credential, source });
  if (judged.status === 'fail') throw new UsageError(judged.detail, judged.fix);
}

function readCredential(
  values: RunValues,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Pick<RunSecrets, 'credential' | 'credentialSource'> {
  if (values.credentialFile) {
    const { value: credential, path } = readCredentialFile(values.credentialFile, cwd);
    refuseStrayWhitespace(credential, `the file ${values.credentialFile}`);
    return { credential, credentialSource: { kind: 'file', path } };
  }
  const name = values.credentialEnv ?? DEFAULT_CREDENTIAL_ENV;
  const credential = env[name];
  if (!credential)
    throw new UsageError(
      `missing credential: the environment variable ${name} is not set`,
      `set ${name}, or pass --credential-env NAME or --credential-file PATH`,
    );
  refuseStrayWhitespace(credential, name);
  return { credential, credentialSource: { kind: 'env', name } };
}

/**
 * The secrets a run needs, read here in the cli (never from a flag's value): the credential from its variable or
 * file, the webhook secret from its variable, or generated for this run.
 */
function readRunSecrets(values: RunValues, env: NodeJS.ProcessEnv, cwd: string): RunSecrets & { generated: boolean } {
  const credential = readCredential(values, env, cwd);
  const secretEnv = values.webhookSecretEnv ?? DEFAULT_WEBHOOK_SECRET_ENV;
  const fromEnv = env[secretEnv];
  return {
    ...credential,
    webhookSecret: fromEnv || randomBytes(24).toString('hex'),
    webhookSecretSource: fromEnv ? { kind: 'env', name: secretEnv } : { kind: 'generated' },
    generated: !fromEnv,
  };
}

/**
 * A loopback or private address can never be certified for hosted use, and a run against it would create test orders
 * and wait out the webhooks before saying so: `run` and `replay` refuse it before any request, naming --local (a fleet
 * file says `local: true` per provider and is judged by the run).
 */
export function refuseLocalWithoutFlag(values: Pick<RunValues, 'baseUrl' | 'local'>): void {
  const baseUrl = parseBaseUrlFlag(values.baseUrl, values.local === true);
  const local = values.local === true;
  const host = new URL(baseUrl).hostname;
  const reason = nonPublicHostReason(host);
  if (local || reason === undefined) return;
  throw new UsageError(
    `--base-url ${baseUrl}: the host ${host} ${reason}, which hosted certification cannot reach; pass --local to certify a provider on this machine or network`,
    'without --local a run needs the public HTTPS address the service will call',
  );
}

/**
 * The merged run values (flags > environment > config file, mergeRunValues) + the secrets read from the environment
 * → a complete run, through resolveRunConfig. What is missing or unusable is a UsageError (exit 2) naming the flag.
 */
export function resolveRunOptions(merged: RunValues, env: NodeJS.ProcessEnv, cwd: string): CliRun {
  parseBaseUrlFlag(merged.baseUrl, merged.local === true);
  if (merged.auth === undefined) parseAuthFlag(undefined);
  const { generated, ...secrets } = readRunSecrets(merged, env, cwd);
  return { ...resolveRunConfig(merged, secrets), generatedSecret: generated };
}
