import { type SchemaName, schemaNames, validate } from './validate.js';

/** What Jest's and Vitest's `expect.extend` take from a matcher. */
export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

const MAX_LISTED = 20;

function listed(errors: readonly { text: string }[]): string {
  const shown = errors.slice(0, MAX_LISTED).map((e) => `  - ${e.text}`);
  if (errors.length > MAX_LISTED) shown.push(`  … and ${errors.length - MAX_LISTED} more`);
  return shown.join('\n');
}

/**
 * `expect(body).toMatchContract('Catalog')`: passes when the body matches the contract's schema, fails listing
 * the same explained errors as `provcert validate`. An unknown schema name fails with the nearest names.
 */
function toMatchContract(received: unknown, schemaName: SchemaName): MatcherResult {
  let result: ReturnType<typeof validate>;
  try {
    result = validate(schemaName, received);
  } catch (e) {
    const known = schemaNames().join(', ');
    return { pass: false, message: () => `${(e as Error).message}; the contract's schemas: ${known}` };
  }
  if (result.valid) {
    return { pass: true, message: () => `expected the value not to match the contract's ${schemaName}, but it does` };
  }
  const count = result.errors.length;
  return {
    pass: false,
    message: () =>
      `expected the value to match the contract's ${schemaName}; ${count} problem${count === 1 ? '' : 's'}:\n${listed(result.errors)}`,
  };
}

/** Matchers for `expect.extend(contractMatchers)` in Jest, Vitest or any runner with Jest's matcher API. */
export const contractMatchers = { toMatchContract };
