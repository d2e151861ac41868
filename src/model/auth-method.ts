import type { AuthMethod } from './contract-constants.js';

const ALIASES: Record<string, AuthMethod> = {
  API_KEY: 'API_KEY',
  'API-KEY': 'API_KEY',
  APIKEY: 'API_KEY',
  BEARER_TOKEN: 'BEARER_TOKEN',
  BEARER: 'BEARER_TOKEN',
  HMAC_SIGNATURE: 'HMAC_SIGNATURE',
  HMAC: 'HMAC_SIGNATURE',
};

/** Accepts the contract names and the short aliases (api-key, bearer, hmac), any case. */
export function parseAuthMethod(value: string): AuthMethod | undefined {
  return ALIASES[value.trim().toUpperCase().replace(/\s+/g, '_')];
}
