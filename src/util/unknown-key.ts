import { nearest } from './did-you-mean.js';

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

/** Why a key is refused: it would hold a secret, or it is a typo of one of the `known` keys. */
export function unknownKeyReason(key: string, known: readonly string[]): string {
  if (looksLikeSecretKey(key)) return secretKeyReason(key);
  const suggestion = nearest(key, known);
  return suggestion
    ? `unknown key "${key}" (did you mean ${suggestion}?)`
    : `unknown key "${key}"; known keys: ${known.join(', ')}`;
}
