import { API_KEY_HEADER, type AuthMethod, SIGNATURE_HEADER } from '../model/contract-constants.js';
import { hmacHex } from '../util/hmac.js';
import type { AuthOverride } from './types.js';

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
  }
}
