import type { CoreRegistrationInput } from '../../src/contract/generated/contract-types.js';

/** The registration every serve test starts from: Demo Kitchen, delivering food in Germany, by API key. */
const DEMO_KITCHEN: CoreRegistrationInput = {
  name: 'Demo Kitchen',
  slug: 'demo-kitchen',
  type: 'DELIVERY',
  category: 'food_delivery',
  geography: ['DE'],
  baseUrl: 'http://127.0.0.1:9/api',
  authMethod: 'API_KEY',
  capabilities: ['METADATA', 'HEALTH', 'CATALOG'],
  credentialEnv: 'DEMO_CREDENTIAL',
};

/**
 * A `provcert serve` registration body: Demo Kitchen with `overrides` laid over it. Overrides may be invalid on
 * purpose (the hostile and validation tests); a field overridden with undefined is left out.
 */
export function registration(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = { ...DEMO_KITCHEN, ...overrides };
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}
