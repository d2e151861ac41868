import { AUTH_METHODS, type AuthMethod } from '../../contract.js';
import { baseAddressProblem } from './base-address.js';

/** Capability names of the contract (section "What the service does", table 7). */
export const CAPABILITIES = [
  'METADATA', 'HEALTH', 'CATALOG', 'QUOTE', 'ACTION_CREATE', 'ACTION_STATUS', 'WEBHOOK', 'LOCATIONS', 'SEARCH', 'ACTION_CANCEL', 'PAYMENT_OPTIONS',
] as const;

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** Where the certifier reads the provider credential: a reference, never the value (DECISIONS.md, Credentials). */
export type CredentialRef = { env: string } | { file: string };

/** POST /api/v1/providers/register, validated. */
export interface Registration {
  name: string;
  slug: string;
  type: string;
  category: string;
  geography: string[];
  baseUrl: string;
  authMethod: AuthMethod;
  capabilities: string[];
  credential: CredentialRef;
  fulfillment?: string;
}

export interface RegistrationRules {
  local: boolean;
  coreUrl?: string;
  /** Capability names accepted; defaults to the contract's. */
  capabilities?: readonly string[];
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** Validate a registration body; returns every problem at once so one round trip fixes them all. */
export function parseRegistration(body: unknown, rules: RegistrationRules): { ok: true; value: Registration } | { ok: false; problems: string[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, problems: ['the body must be a JSON object'] };
  const b = body as Record<string, unknown>;
  const problems: string[] = [];
  const text = (field: string): string => {
    const v = b[field];
    if (typeof v !== 'string' || v.trim() === '') {
      problems.push(`${field} is required (non-empty string)`);
      return '';
    }
    return v.trim();
  };
  const name = text('name');
  const slug = text('slug');
  if (slug && !SLUG_PATTERN.test(slug)) problems.push(`slug "${slug}" must be lowercase letters, digits and dashes (at most 64)`);
  const type = text('type').toUpperCase();
  const category = text('category');
  const geography = b['geography'];
  if (!isStringArray(geography)) problems.push('geography is required (array of country or region codes)');
  const baseUrl = text('baseUrl');
  if (baseUrl) {
    const problem = baseAddressProblem(baseUrl, rules);
    if (problem) problems.push(problem);
  }
  const authRaw = text('authMethod').toUpperCase();
  const authMethod = AUTH_METHODS.find((m) => m === authRaw);
  if (authRaw && !authMethod) problems.push(`authMethod must be one of ${AUTH_METHODS.join(', ')}`);
  const known = rules.capabilities && rules.capabilities.length > 0 ? rules.capabilities : CAPABILITIES;
  const capabilities = b['capabilities'];
  if (!isStringArray(capabilities) || capabilities.length === 0) {
    problems.push('capabilities is required (array of capability names)');
  } else {
    const unknown = capabilities.filter((c) => !known.includes(c));
    if (unknown.length > 0) problems.push(`unknown capabilities ${unknown.join(', ')}; known: ${known.join(', ')}`);
  }
  if ('credential' in b || 'apiKey' in b || 'token' in b) {
    problems.push('send a credential reference (credentialEnv or credentialFile on the server), never the credential itself');
  }
  const credentialEnv = b['credentialEnv'];
  const credentialFile = b['credentialFile'];
  let credential: CredentialRef | undefined;
  if (typeof credentialEnv === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(credentialEnv) && credentialFile === undefined) credential = { env: credentialEnv };
  else if (typeof credentialFile === 'string' && credentialFile !== '' && credentialEnv === undefined) credential = { file: credentialFile };
  else problems.push('name exactly one credential reference: credentialEnv (an environment variable name on the server) or credentialFile (a path on the server)');
  const fulfillment = b['fulfillment'];
  if (fulfillment !== undefined && typeof fulfillment !== 'string') problems.push('fulfillment must be a string');

  if (problems.length > 0 || !authMethod || !credential || !isStringArray(geography) || !isStringArray(capabilities)) {
    return { ok: false, problems };
  }
  return {
    ok: true,
    value: {
      name, slug, type, category, geography, baseUrl, authMethod, capabilities, credential,
      ...(typeof fulfillment === 'string' ? { fulfillment: fulfillment.toUpperCase() } : {}),
    },
  };
}
