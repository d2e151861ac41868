import { UsageError } from '../model/errors.js';
import { describeValue } from '../util/describe-value.js';

/** What each option of certify() must be; JavaScript callers (and `as` casts) can pass anything. */
type Kind = 'string' | 'boolean' | 'number' | 'string list' | 'AbortSignal' | 'function' | 'list';

const KINDS: Readonly<Record<string, Kind>> = {
  baseUrl: 'string',
  auth: 'string',
  credential: 'string',
  webhookSecret: 'string',
  local: 'boolean',
  webhookHost: 'string',
  webhookPort: 'number',
  profile: 'string',
  capabilities: 'string list',
  fulfillment: 'string',
  only: 'string list',
  skip: 'string list',
  strict: 'boolean',
  timeoutMs: 'number',
  webhookTimeoutMs: 'number',
  maxExpiryWaitS: 'number',
  concurrency: 'number',
  seed: 'string',
  signal: 'AbortSignal',
  onCheckEnd: 'function',
  credentialEnv: 'string',
  webhookSecretEnv: 'string',
  expectedFailures: 'list',
};

const IS: Readonly<Record<Kind, (value: unknown) => boolean>> = {
  string: (v) => typeof v === 'string',
  boolean: (v) => typeof v === 'boolean',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  'string list': (v) => Array.isArray(v) && v.every((item) => typeof item === 'string'),
  AbortSignal: (v) => v instanceof AbortSignal,
  function: (v) => typeof v === 'function',
  list: (v) => Array.isArray(v),
};

/**
 * certify()'s options checked by type before anything reads them: a wrong type is a UsageError naming the option
 * and what it got, never a TypeError from deep inside the run (issue 32). Values are judged afterwards.
 */
export function checkOptionTypes(options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new UsageError(`certify: takes an options object (got ${describeValue(options)})`);
  for (const [name, kind] of Object.entries(KINDS)) {
    const value = (options as Record<string, unknown>)[name];
    if (value === undefined) continue;
    if (!IS[kind](value))
      throw new UsageError(
        `certify: ${name} must be ${/^[aeiouA]/.test(kind) ? 'an' : 'a'} ${kind} (got ${describeValue(value)})`,
      );
  }
}
