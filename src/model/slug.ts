/**
 * A provider slug, provcert's one rule for it (the contract types it only as a string; it names the provider in
 * the webhook path `/webhooks/{providerSlug}`): lowercase letters, digits and dashes, starting and ending with a
 * letter or digit, at most 64 characters. It is the rule of the core's registration (spec/openapi.yaml), so a
 * slug accepted anywhere else (a fleet, a waiver, the reference provider) can be registered. The JSON schemas
 * that take a slug use the same pattern (test/model/slug.test.ts).
 */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** What a slug must be, for messages: "… must be a provider slug: <SLUG_RULE>". */
export const SLUG_RULE =
  'lowercase letters, digits and dashes, starting and ending with a letter or digit, at most 64 characters';

export const isSlug = (value: unknown): value is string => typeof value === 'string' && SLUG_PATTERN.test(value);
