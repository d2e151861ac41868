/**
 * Names fixed by the contract and DECISIONS.md that the TypeScript code needs to refer to.
 * Shapes are NOT re-typed here: payload validation is compiled from spec/openapi.yaml.
 */
export const AUTH_METHODS = ['API_KEY', 'BEARER_TOKEN', 'HMAC_SIGNATURE'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

export const PROFILES = ['TRANSACTIONAL', 'DISCOVERY_READONLY'] as const;
export type Profile = (typeof PROFILES)[number];

/** Header names of the three security schemes (contract, Authentication §2). */
export const API_KEY_HEADER = 'x-provider-api-key';
export const SIGNATURE_HEADER = 'x-service-signature';
export const COMPAT_SIGNATURE_HEADER = 'x-provider-signature';

export const DEFAULT_CREDENTIAL_ENV = 'PROVIDER_API_KEY';
export const DEFAULT_WEBHOOK_SECRET_ENV = 'SERVICE_WEBHOOK_SECRET';

/** Minimum quote validity (contract, Limits). */
export const MIN_QUOTE_VALIDITY_MS = 5_000;

/** The contract version provcert certifies against. */
export const CONTRACT_VERSION = '1.0.0';

/** Action statuses (contract, States and transitions › Action status). */
export const ACTION_STATUSES = [
  'CREATED',
  'AWAITING_PAYMENT',
  'CONFIRMED',
  'PROCESSING',
  'COMPLETED',
  'CANCELLED',
  'FAILED',
] as const;
