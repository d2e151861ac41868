import type { OperationInfo } from '../../../contract/types.js';
import type { NearMissChange } from '../../../http/types.js';
import type { AuthMethod } from '../../../model/contract-constants.js';
import type { RequirementId } from '../../../model/findings.js';

/**
 * The authentication probe table: every provider route the spec declares × every credential shape the run's auth
 * method can get wrong. Pure data: the checks `wrong-credential` and `signature` send its rows; a route or scheme
 * added to spec/openapi.yaml gets its probes from here, not from a new hand-written probe.
 */

/** The security scheme of spec/openapi.yaml each auth method is (components.securitySchemes). */
export const SCHEME_OF: Record<AuthMethod, string> = {
  API_KEY: 'ProviderApiKey',
  BEARER_TOKEN: 'ProviderBearerToken',
  HMAC_SIGNATURE: 'ProviderHmacSignature',
};

/** A route the provider authenticates, as the spec declares it. */
export interface AuthRoute {
  /** "GET /actions/{id}" */
  key: string;
  method: 'GET' | 'POST';
  /** The path template, parameters in braces. */
  path: string;
  /** Whether it takes a JSON body (POST with a request body). */
  body: boolean;
  capability?: string;
  requiredIn: readonly string[];
}

/** Every operation the method authenticates: the provider routes (the webhook and core routes use other schemes). */
export function authRoutes(operations: readonly OperationInfo[], method: AuthMethod): AuthRoute[] {
  return operations.flatMap((op) => {
    if (!op.security.includes(SCHEME_OF[method])) return [];
    if (op.method !== 'GET' && op.method !== 'POST') return [];
    return [
      {
        key: op.key,
        method: op.method,
        path: op.path,
        body: op.requestBody,
        ...(op.capability ? { capability: op.capability } : {}),
        requiredIn: op.requiredIn,
      },
    ];
  });
}

/** How a probe authenticates, as data: the check resolves it to the client's AuthOverride (auth-probes.ts). */
export type CredentialSpec =
  | { kind: 'none' }
  /** A credential of the right form that is not the provider's (derived from the run's seed). */
  | { kind: 'wrong' }
  /** The webhook secret (provider to service) used as the provider credential (service to provider). */
  | { kind: 'webhook-secret' }
  /** The right credential, carried as another auth method would carry it. */
  | { kind: 'other-scheme' }
  | { kind: 'near-miss'; change: NearMissChange; target: 'credential' | 'signature' }
  /** HMAC over other bytes than the body sent. */
  | { kind: 'tampered-body' }
  | { kind: 'not-hex' };

/** One credential shape of the table. */
export interface CredentialShape {
  id: string;
  /** "with the credential's last character dropped": completes "GET /catalog …". */
  describe: string;
  credential: CredentialSpec;
  /** `refused`: 401 UNAUTHORIZED. `either`: the contract leaves it open; refused, it must still be 401. */
  expect: 'refused' | 'either';
  requirement: RequirementId;
}

const WRONG = 'AUTH-WRONG-CREDENTIAL-REJECTED';
const HMAC = 'AUTH-HMAC-VERIFIED';

const nearCredential = (
  id: string,
  change: NearMissChange,
  describe: string,
  requirement: RequirementId = WRONG,
): CredentialShape => ({
  id,
  describe,
  credential: { kind: 'near-miss', change, target: 'credential' },
  expect: 'refused',
  requirement,
});

const nearSignature = (
  id: string,
  change: NearMissChange,
  describe: string,
  expect: CredentialShape['expect'] = 'refused',
): CredentialShape => ({
  id,
  describe,
  credential: { kind: 'near-miss', change, target: 'signature' },
  expect,
  requirement: HMAC,
});

/**
 * API key and bearer token: the value itself is compared, so every near miss of it must be refused. No shorter
 * prefix than all but the last character: a provider that repeats it in an error answer would show a piece of the
 * secret too short for the masker to know.
 */
const SECRET_SHAPES: readonly CredentialShape[] = [
  {
    id: 'missing',
    describe: 'without a credential',
    credential: { kind: 'none' },
    expect: 'refused',
    requirement: 'AUTH-MISSING-CREDENTIAL-REJECTED',
  },
  {
    id: 'wrong',
    describe: 'with a wrong credential',
    credential: { kind: 'wrong' },
    expect: 'refused',
    requirement: WRONG,
  },
  {
    id: 'other-direction',
    describe: "with the webhook secret (the other direction's credential)",
    credential: { kind: 'webhook-secret' },
    expect: 'refused',
    requirement: WRONG,
  },
  {
    id: 'other-scheme',
    describe: "with the right credential in another auth method's header",
    credential: { kind: 'other-scheme' },
    expect: 'refused',
    // The configured method's header is missing: the credential elsewhere is no credential (§7: "an auth method
    // or header name differing from the portal setting").
    requirement: 'AUTH-MISSING-CREDENTIAL-REJECTED',
  },
  nearCredential('prefix', 'drop-last', "with the credential's last character dropped (a prefix)"),
  nearCredential('suffix', 'append', 'with one character appended to the credential'),
  nearCredential('case', 'swap-case', "with the credential's letter case swapped"),
  nearCredential('whitespace', 'nbsp-around', 'with the credential between non-breaking spaces'),
];

/**
 * Bearer only: a space inside the header value, after the scheme word ("Bearer  token"); the right token under
 * another scheme word, or after a word before the scheme (a provider reading the token as the value's second or last
 * word, or finding "Bearer " anywhere in it). The configured method's credential is then missing (§7: "an auth method
 * ... differing from the portal setting").
 */
const BEARER_SHAPES: readonly CredentialShape[] = [
  nearCredential('leading-space', 'space-before', 'with a space before the token ("Bearer  <token>")'),
  {
    id: 'scheme-replaced',
    describe: 'with the right token under another scheme word ("Basic <token>")',
    credential: { kind: 'near-miss', change: 'scheme-replaced', target: 'signature' },
    expect: 'refused',
    requirement: 'AUTH-MISSING-CREDENTIAL-REJECTED',
  },
  {
    id: 'word-before',
    describe: 'with a word before the scheme ("Token Bearer <token>")',
    credential: { kind: 'near-miss', change: 'word-before', target: 'signature' },
    expect: 'refused',
    requirement: 'AUTH-MISSING-CREDENTIAL-REJECTED',
  },
];

/** HMAC: the signature is compared; the secret never travels, so its near misses are signatures near the right one. */
const HMAC_SHAPES: readonly CredentialShape[] = [
  {
    id: 'missing',
    describe: 'without a signature',
    credential: { kind: 'none' },
    expect: 'refused',
    requirement: HMAC,
  },
  {
    id: 'wrong',
    describe: 'signed with a wrong secret',
    credential: { kind: 'wrong' },
    expect: 'refused',
    requirement: HMAC,
  },
  {
    id: 'other-direction',
    describe: "signed with the webhook secret (the other direction's secret)",
    credential: { kind: 'webhook-secret' },
    expect: 'refused',
    requirement: HMAC,
  },
  {
    id: 'other-scheme',
    describe: 'carrying the signing secret itself as an API key instead of a signature',
    credential: { kind: 'other-scheme' },
    expect: 'refused',
    requirement: HMAC,
  },
  {
    id: 'tampered-body',
    describe: 'signed over other bytes than the body sent (tampered body)',
    credential: { kind: 'tampered-body' },
    expect: 'refused',
    requirement: HMAC,
  },
  nearSignature('truncated', 'drop-last', 'with the right signature missing its last hex digit (truncated)'),
  nearSignature('half', 'first-half', 'with the first half of the right signature only'),
  nearSignature('suffix', 'append', 'with a hex digit appended to the right signature'),
  nearSignature('whitespace', 'nbsp-around', 'with the right signature between non-breaking spaces'),
  nearCredential('secret-case', 'swap-case', "signed with the secret's letter case swapped", HMAC),
  {
    id: 'not-hex',
    describe: 'with a signature that is not hex',
    credential: { kind: 'not-hex' },
    expect: 'refused',
    requirement: HMAC,
  },
  // Hex is case-insensitive: the same digest in capitals is the right signature (docs/decisions.md, Credential).
  nearSignature('upper-case', 'upper-case', 'with the right signature in upper-case hex', 'either'),
];

/** The credential shapes of one auth method, in table order. */
export function credentialShapes(method: AuthMethod): readonly CredentialShape[] {
  if (method === 'HMAC_SIGNATURE') return HMAC_SHAPES;
  return method === 'BEARER_TOKEN' ? [...SECRET_SHAPES, ...BEARER_SHAPES] : SECRET_SHAPES;
}

/** One row: a route with a credential shape. */
export interface AuthProbe {
  route: AuthRoute;
  shape: CredentialShape;
}

/** Every route × every shape of the method: the whole table. */
export function authProbeTable(routes: readonly AuthRoute[], method: AuthMethod): AuthProbe[] {
  return routes.flatMap((route) => credentialShapes(method).map((shape) => ({ route, shape })));
}
