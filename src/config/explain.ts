import type { ErrorObject } from 'ajv';
import { describeValue } from '../contract/explain.js';
import { didYouMean, nearest } from '../util/did-you-mean.js';
import { CONFIG_FILE_KEYS } from './options.js';

/** One config problem: where (a JSON pointer such as /webhookPort, or '' for the whole file) and why. */
export interface ConfigProblem {
  pointer: string;
  reason: string;
}

/** Keys whose values name a secret's location: a wrong value may BE the secret, so it is never echoed. */
const SECRET_NAMING_KEYS = new Set(['credentialEnv', 'webhookSecretEnv', 'credentialFile']);

const normalize = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A key that would hold a secret value (credential, apiKey, token…), not the name of where it lives. */
function looksLikeSecretKey(key: string): boolean {
  const n = normalize(key);
  if (/(env|file|path|name|var|variable)$/.test(n)) return false;
  return /(secret|token|password|passwd|apikey|credential|privatekey|bearer|hmac|^key$)/.test(n);
}

function secretKeyReason(key: string): string {
  const webhook = /webhook/i.test(key);
  const fix = webhook
    ? 'put the webhook secret in an environment variable and name it with webhookSecretEnv (default SERVICE_WEBHOOK_SECRET)'
    : 'put the credential in an environment variable and name it with credentialEnv (default PROVIDER_API_KEY), or use credentialFile';
  return `key "${key}" would hold a secret, and secrets never go in the config file: ${fix}`;
}

/** Why a key is refused: it would hold a secret, or it is a typo of a known key (the fleet file has its own keys). */
export function unknownKeyReason(key: string, known: readonly string[] = CONFIG_FILE_KEYS): string {
  if (looksLikeSecretKey(key)) return secretKeyReason(key);
  const suggestion = nearest(key, known);
  return suggestion
    ? `unknown key "${key}" (did you mean ${suggestion}?)`
    : `unknown key "${key}"; known keys: ${known.join(', ')}`;
}

function found(e: ErrorObject): string {
  const key = e.instancePath.split('/')[1] ?? '';
  if (SECRET_NAMING_KEYS.has(key)) return '(value not shown: it may be a secret)';
  return `(found ${describeValue(e.data)})`;
}

function expected(e: ErrorObject): string | undefined {
  const parent = e.parentSchema as Record<string, unknown> | undefined;
  const text = parent?.['x-expected'];
  return typeof text === 'string' ? text : undefined;
}

/** One ajv error → key path + reason. */
export function explainConfigError(e: ErrorObject): ConfigProblem {
  const params = e.params as Record<string, unknown>;
  const pointer = e.instancePath;
  switch (e.keyword) {
    case 'additionalProperties':
      return { pointer: '', reason: unknownKeyReason(String(params['additionalProperty'])) };
    case 'type': {
      const types = String(params['type']).split(',');
      const wanted = expected(e) ?? types.join(' or ');
      return { pointer, reason: `must be ${wanted} ${found(e)}` };
    }
    case 'enum': {
      const allowed = (params['allowedValues'] as unknown[]).map(String);
      const hint = typeof e.data === 'string' ? didYouMean(e.data, allowed) : '';
      return { pointer, reason: `must be one of ${allowed.join(', ')} ${found(e)}${hint}` };
    }
    case 'minimum':
      return { pointer, reason: `must be at least ${String(params['limit'])} ${found(e)}` };
    case 'maximum':
      return { pointer, reason: `must be at most ${String(params['limit'])} ${found(e)}` };
    case 'minLength':
      return { pointer, reason: 'must not be empty' };
    case 'pattern':
      return { pointer, reason: `must be ${expected(e) ?? `text matching ${String(params['pattern'])}`} ${found(e)}` };
    default:
      return { pointer, reason: `${e.message ?? 'is invalid'} ${found(e)}` };
  }
}
