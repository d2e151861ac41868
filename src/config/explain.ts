import type { ErrorObject } from 'ajv';
import { describeValue } from '../util/describe-value.js';
import { didYouMean } from '../util/did-you-mean.js';
import { unknownKeyReason as unknownKey } from '../util/unknown-key.js';
import { CONFIG_FILE_KEYS } from './options.js';

/** One config problem: where (a JSON pointer such as /webhookPort, or '' for the whole file) and why. */
export interface ConfigProblem {
  pointer: string;
  reason: string;
  /** Set when the problem is a key itself (unknown key): its line is the key's, not the parent's. */
  key?: string;
}

/** Keys whose values name a secret's location: a wrong value may BE the secret, so it is never echoed. */
const SECRET_NAMING_KEYS = new Set(['credentialEnv', 'webhookSecretEnv', 'credentialFile']);

/** Why a key of a config file is refused (it would hold a secret, or it is a typo of a known key). */
export const unknownKeyReason = (key: string, known: readonly string[] = CONFIG_FILE_KEYS): string =>
  unknownKey(key, known);

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
      return {
        pointer: '',
        reason: unknownKeyReason(String(params['additionalProperty'])),
        key: String(params['additionalProperty']),
      };
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
