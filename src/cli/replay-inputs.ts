import { DEFAULT_CREDENTIAL_ENV, DEFAULT_WEBHOOK_SECRET_ENV } from '../model/contract-constants.js';
import type { RecordedSource, RecordedTargets } from './replay-plan.js';
import type { FlagValues } from './run-flags.js';

/**
 * What the person replaying states: flags, their PROVCERT_* environment and their own config file. Only these
 * decide where a replay connects and which variable or file it reads; a report's values are a suggestion.
 */
export interface PersonInputs {
  baseUrl?: string;
  auth?: string;
  credentialEnv?: string;
  credentialFile?: string;
  webhookSecretEnv?: string;
  local?: boolean;
}

export interface ReplayInputs {
  /** baseUrl, auth, credential and webhook secret source, local: the flags the rerun gets. */
  flags: FlagValues;
  /** The report's values this replay would use without the person having stated them ("contact …", "read …"). */
  fromReport: string[];
  /** What the person has to state (or trust) before anything is sent, e.g. "--base-url", "--auth". */
  missing: string[];
  /** One line each where the replay does not use what the report's run used, to say so. */
  notes: string[];
}

export const describeSource = (source: RecordedSource): string =>
  source.kind === 'env' ? `the environment variable ${source.name}` : `the file ${source.path}`;

const flagOf = (source: RecordedSource): string =>
  source.kind === 'env' ? `--credential-env ${source.name}` : `--credential-file ${source.path}`;

const sameSource = (a: RecordedSource, b: RecordedSource): boolean =>
  a.kind === b.kind && (a.kind === 'env' ? a.name === (b as typeof a).name : a.path === (b as typeof a).path);

/** The credential source the person stated, else their default variable (never one a report names). */
function personCredential(given: PersonInputs): { source: RecordedSource; stated: boolean } {
  if (given.credentialFile !== undefined) return { source: { kind: 'file', path: given.credentialFile }, stated: true };
  if (given.credentialEnv !== undefined) return { source: { kind: 'env', name: given.credentialEnv }, stated: true };
  return { source: { kind: 'env', name: DEFAULT_CREDENTIAL_ENV }, stated: false };
}

const sourceFlags = (source: RecordedSource): FlagValues =>
  source.kind === 'env' ? { credentialEnv: source.name } : { credentialFile: source.path };

/**
 * The rerun's address, auth method and secret sources (issue 25). Each comes from the person; a recorded one is
 * used only when `trust` (--trust-report-inputs or a confirmed prompt) says so, and is then listed in `fromReport`.
 * A base URL or auth method neither stated nor trusted is `missing`: the replay sends nothing.
 */
export function chooseReplayInputs(recorded: RecordedTargets, given: PersonInputs, trust: boolean): ReplayInputs {
  const fromReport: string[] = [];
  const missing: string[] = [];
  const notes: string[] = [];

  let baseUrl = given.baseUrl;
  if (baseUrl === undefined && trust) {
    baseUrl = recorded.baseUrl;
    fromReport.push(`contact ${recorded.baseUrl}`);
  } else if (baseUrl === undefined) missing.push('--base-url');
  let auth = given.auth;
  if (auth === undefined && trust) {
    auth = recorded.authMethod;
    fromReport.push(`authenticate with ${recorded.authMethod}`);
  } else if (auth === undefined) missing.push('--auth');

  const person = personCredential(given);
  let credential = person.source;
  if (!person.stated && trust && recorded.credential) {
    credential = recorded.credential;
    fromReport.push(`read the credential from ${describeSource(recorded.credential)}`);
  } else if (recorded.credential && !sameSource(recorded.credential, credential)) {
    notes.push(
      `the report's run read its credential from ${describeSource(recorded.credential)}; this replay reads ${describeSource(credential)} (pass ${flagOf(recorded.credential)} to use the same)`,
    );
  }

  let webhookSecretEnv = given.webhookSecretEnv;
  const recordedSecret = recorded.webhookSecret;
  if (webhookSecretEnv === undefined && trust && recordedSecret?.kind === 'env') {
    webhookSecretEnv = recordedSecret.name;
    fromReport.push(`read the webhook secret from ${describeSource(recordedSecret)}`);
  } else if (
    recordedSecret?.kind === 'env' &&
    recordedSecret.name !== (webhookSecretEnv ?? DEFAULT_WEBHOOK_SECRET_ENV)
  ) {
    notes.push(
      `the report's run read its webhook secret from ${describeSource(recordedSecret)}; this replay reads the environment variable ${webhookSecretEnv ?? DEFAULT_WEBHOOK_SECRET_ENV} (pass --webhook-secret-env ${recordedSecret.name} to use the same)`,
    );
  }

  // --local only loosens the address check, and only for the very address the report's run was allowed it for.
  const local = given.local === true || (recorded.local && baseUrl === recorded.baseUrl);
  const flags: FlagValues = {
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(auth !== undefined ? { auth } : {}),
    ...sourceFlags(credential),
    ...(webhookSecretEnv !== undefined ? { webhookSecretEnv } : {}),
    local,
  };
  return { flags, fromReport, missing, notes };
}

/** "--base-url https://… --auth API_KEY --credential-env NAME": the report's run as flags, for a person to copy. */
export function recordedAsFlags(recorded: RecordedTargets): string {
  return [
    `--base-url ${recorded.baseUrl}`,
    `--auth ${recorded.authMethod}`,
    ...(recorded.credential ? [flagOf(recorded.credential)] : []),
    ...(recorded.webhookSecret?.kind === 'env' ? [`--webhook-secret-env ${recorded.webhookSecret.name}`] : []),
  ].join(' ');
}
