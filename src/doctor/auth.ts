import { authHeader } from '../http/auth.js';
import type { HttpOutcome, ProviderClient } from '../http/types.js';
import { AUTH_METHODS, type AuthMethod } from '../model/contract-constants.js';
import type { SpellSetting } from '../model/setting-speller.js';
import { type Probes, ROUTES, type Route } from './http-probes.js';
import { type Diagnosis, type DoctorCredential, diagnosis } from './types.js';

/** How each scheme shows up on the wire, for messages (header names only, never values). */
const HEADER_LABEL: Record<AuthMethod, string> = {
  API_KEY: 'x-provider-api-key',
  BEARER_TOKEN: 'Authorization: Bearer',
  HMAC_SIGNATURE: 'x-service-signature',
};

const STRAY_WHITESPACE = /^\s|\s$/;

/** No HTTP header can carry a line break: such a credential cannot even be sent as configured. */
export const headerSafe = (credential: string): boolean => !/[\r\n\0]/.test(credential);
const ok2xx = (o: HttpOutcome): boolean => o.kind === 'response' && o.status >= 200 && o.status < 300;
const rejected = (o: HttpOutcome): boolean => o.kind === 'response' && (o.status === 401 || o.status === 403);

/** Stray whitespace around a secret is a classic cause of 401 (contract, Authentication §7). The value is never shown. */
export function credentialDiagnosis(credential: DoctorCredential | undefined): Diagnosis {
  if (!credential) return diagnosis('credential', 'skip', 'no credential given');
  const { value, source } = credential;
  if (value === '')
    return diagnosis(
      'credential',
      'fail',
      `the credential from ${source} is empty`,
      `put the provider credential in ${source}`,
    );
  const problems: string[] = [];
  if (/^\s/.test(value)) problems.push('leading whitespace');
  if (/[\r\n]$/.test(value)) problems.push('a trailing newline');
  else if (/\s$/.test(value)) problems.push('trailing whitespace');
  if (/[\r\n]/.test(value.trim())) problems.push('a line break inside');
  if (problems.length > 0) {
    return diagnosis(
      'credential',
      'fail',
      `the credential from ${source} has ${problems.join(' and ')} (value not shown)`,
      `remove the whitespace from ${source} (write files with printf '%s' rather than echo; check the value stored in the portal too)`,
    );
  }
  return diagnosis('credential', 'ok', `no stray whitespace around the credential from ${source}`);
}

/** The first required route that either accepted or rejected the credential: the one auth is judged on. */
function authRoute(probes: Probes): Route | undefined {
  return ROUTES.find((r) => ok2xx(probes.routes[r]) || rejected(probes.routes[r]));
}

interface Attempt {
  method: AuthMethod;
  trimmed: boolean;
}

/** Try schemes (and the trimmed credential) until the provider accepts one. */
async function findAccepted(
  client: ProviderClient,
  route: string,
  credential: string,
  attempts: readonly Attempt[],
): Promise<{ attempt: Attempt; status: number } | undefined> {
  for (const attempt of attempts) {
    const value = attempt.trimmed ? credential.trim() : credential;
    const [name, headerValue] = authHeader(attempt.method, value, '');
    const outcome = await client.send({
      method: 'GET',
      path: route,
      auth: { kind: 'headers', headers: { [name]: headerValue } },
    });
    if (ok2xx(outcome) && outcome.kind === 'response') return { attempt, status: outcome.status };
  }
  return undefined;
}

function attemptsFor(configured: AuthMethod | undefined, credential: string): Attempt[] {
  const others = headerSafe(credential)
    ? AUTH_METHODS.filter((m) => m !== configured).map((method) => ({ method, trimmed: false }))
    : [];
  const trimmed = STRAY_WHITESPACE.test(credential) ? AUTH_METHODS.map((method) => ({ method, trimmed: true })) : [];
  // The configured scheme with a trimmed value first: whitespace is the likelier mistake than the scheme.
  return [
    ...trimmed.filter((a) => a.method === configured),
    ...others,
    ...trimmed.filter((a) => a.method !== configured),
  ];
}

const everyScheme = AUTH_METHODS.map((m) => HEADER_LABEL[m]).join(', ');

/**
 * Auth header mismatch: when the configured scheme is rejected, try the other two header names with
 * the same credential and say which one the provider seems to expect.
 */
export async function authDiagnosis(
  probes: Probes,
  client: ProviderClient,
  configured: AuthMethod | undefined,
  credential: DoctorCredential | undefined,
  spell: SpellSetting,
): Promise<Diagnosis> {
  if (!credential)
    return diagnosis(
      'auth',
      'skip',
      'no credential given, so authentication was not tested',
      `set PROVIDER_API_KEY, or pass ${spell('credentialEnv', 'NAME')} or ${spell('credentialFile', 'PATH')}`,
    );
  const route = authRoute(probes);
  if (!route)
    return diagnosis(
      'auth',
      'skip',
      'no required route answered 2xx or 401, so authentication could not be judged (see routes)',
    );
  return authDiagnosisOn(route, probes.routes[route], client, configured, credential, spell);
}

/** The auth diagnosis from one route's answer to the configured credential (provcert run uses it when GET /provider-info is refused). */
export async function authDiagnosisOn(
  route: string,
  first: HttpOutcome,
  client: ProviderClient,
  configured: AuthMethod | undefined,
  credential: DoctorCredential,
  spell: SpellSetting,
): Promise<Diagnosis> {
  const status = first.kind === 'response' ? first.status : 0;

  const sendable = headerSafe(credential.value);
  if (configured && sendable && ok2xx(first)) {
    return diagnosis('auth', 'ok', `GET ${route} answered ${status} with ${HEADER_LABEL[configured]} (${configured})`);
  }
  if ((!configured || !sendable) && ok2xx(first)) {
    return diagnosis(
      'auth',
      'warn',
      `GET ${route} answered ${status} without any credential: provider routes must answer 401 to a missing credential`,
      'protect the provider routes with the auth method chosen in the portal (provcert run checks this in wrong-credential)',
    );
  }
  const accepted = await findAccepted(client, route, credential.value, attemptsFor(configured, credential.value));
  const unsendable = `the credential from ${credential.source} contains a line break, which no HTTP header can carry`;
  if (!sendable && !accepted) {
    return diagnosis(
      'auth',
      'fail',
      `${unsendable}, and GET ${route} answered ${status} to every scheme with the whitespace removed`,
      `remove the whitespace from ${credential.source}, and check that it holds the provider credential the backend expects`,
    );
  }
  if (!accepted) {
    return diagnosis(
      'auth',
      'fail',
      `GET ${route} answered ${status} with every scheme (${everyScheme}): the credential itself is not accepted`,
      `check that ${credential.source} holds the provider credential the backend expects (not the webhook secret or an account token) and that it was not rotated`,
    );
  }
  const { attempt } = accepted;
  const how = `${HEADER_LABEL[attempt.method]}${attempt.trimmed ? ' and the whitespace removed from the credential' : ''}`;
  if (!configured) {
    if (attempt.trimmed)
      return diagnosis(
        'auth',
        'fail',
        `GET ${route} answered ${accepted.status} only with ${how}`,
        `remove the whitespace from ${credential.source} and use ${spell('auth', attempt.method)}`,
      );
    return diagnosis(
      'auth',
      'ok',
      `GET ${route} answered ${accepted.status} with ${how}: use ${spell('auth', attempt.method)}`,
    );
  }
  const fixes = [
    ...(attempt.trimmed ? [`remove the whitespace from ${credential.source}`] : []),
    ...(attempt.method !== configured
      ? [`use ${spell('auth', attempt.method)} (and choose ${attempt.method} in the portal)`]
      : []),
  ];
  const tried = sendable
    ? `GET ${route} answered ${status} with ${HEADER_LABEL[configured]} (${configured}) but`
    : `${unsendable}; GET ${route} answered`;
  return diagnosis(
    'auth',
    'fail',
    `${tried} ${accepted.status} with ${how}; you configured ${configured}`,
    fixes.join(', and '),
  );
}
