import { API_KEY_HEADER, type AuthMethod, SIGNATURE_HEADER } from '../model/contract-constants.js';
import { hmacHex } from '../util/hmac.js';
import type { AuthOverride, NearMissChange } from './types.js';

/** A value nearly equal to `value` (docs: NearMissChange). */
export function nearMiss(value: string, change: NearMissChange): string {
  switch (change) {
    case 'drop-last':
      return value.slice(0, -1);
    case 'first-half':
      return value.slice(0, Math.ceil(value.length / 2));
    case 'append':
      return `${value}0`;
    case 'swap-case':
      return [...value].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
    case 'nbsp-around':
      return `\u00a0${value}\u00a0`;
    case 'space-before':
      return ` ${value}`;
    case 'upper-case':
      return value.toUpperCase();
    case 'scheme-replaced':
      return value.replace(/^\S*/, 'Basic');
    case 'word-before':
      return `Token ${value}`;
  }
}

/** The configured credential as another method carries it: a key as a bearer token, a token or secret as a key. */
function otherScheme(method: AuthMethod, credential: string): [string, string] {
  return method === 'API_KEY' ? ['authorization', `Bearer ${credential}`] : [API_KEY_HEADER, credential];
}

/** The header a method authenticates with, and its value for a credential and body. */
export function authHeader(method: AuthMethod, credential: string, body: string): [string, string] {
  switch (method) {
    case 'API_KEY':
      return [API_KEY_HEADER, credential];
    case 'BEARER_TOKEN':
      return ['authorization', `Bearer ${credential}`];
    case 'HMAC_SIGNATURE':
      return [SIGNATURE_HEADER, hmacHex(credential, body)];
  }
}

/** The authentication headers of one request, given the override a check asked for. */
export function authHeadersFor(
  method: AuthMethod,
  credential: string,
  body: string,
  override: AuthOverride,
): Record<string, string> {
  switch (override.kind) {
    case 'configured':
      return Object.fromEntries([authHeader(method, credential, body)]);
    case 'none':
      return {};
    case 'credential':
      return Object.fromEntries([authHeader(method, override.credential, body)]);
    case 'sign-other-bytes':
      return Object.fromEntries([authHeader(method, credential, override.bytes)]);
    case 'headers':
      return { ...override.headers };
    case 'other-scheme':
      return Object.fromEntries([otherScheme(method, credential)]);
    case 'near-miss': {
      if (override.target === 'credential')
        return Object.fromEntries([authHeader(method, nearMiss(credential, override.change), body)]);
      const [name, value] = authHeader(method, credential, body);
      return { [name]: nearMiss(value, override.change) };
    }
  }
}
