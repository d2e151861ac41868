import { describe, expect, test } from 'vitest';
import type { AuthMethod } from '../../src/model/contract-constants.js';
import type { Variant } from '../../src/reference-provider/index.js';

/**
 * The mutation bench's test: a certification of the (mutated) reference provider on the shared manual clock.
 * Each auth method on the standard variant and each other variant on API_KEY, so a mutant on any path a
 * conforming provider can take is certified; a verdict other than PASS kills it.
 */

/**
 * The provider and the certification are loaded here, not imported above: a mutant that makes the provider's modules
 * throw while loading (an invalid default slug, a constant read before it exists) would otherwise fail the file's
 * collection, Stryker would see no test at all, and count the mutant as survived. Loaded here, every test fails with
 * the load error instead, and the mutant is killed: a provider that cannot start is caught by any certification.
 */
const loaded = await Promise.all([
  import('../../src/reference-provider/index.js'),
  import('../../test/support/certify.js'),
]).then(
  ([provider, support]) => ({ variants: provider.VARIANTS, certify: support.certify }),
  (error: unknown) => ({ error }),
);

/**
 * standard runs above; long-quotes outlive the expiry wait (INCOMPLETE by design) and slow-quotes wait in real time:
 * both are certified by test/checks/not-tested.int.test.ts, not by one quick certification.
 */
const NOT_CERTIFIED_HERE = new Set<Variant>(['standard', 'long-quotes', 'slow-quotes']);

/**
 * The other conforming variants are certified only when run.ts mutates a file whose code is theirs
 * (PROVCERT_MUTATION_VARIANTS=1): a survivor pays every run, and on shared code the three standard runs kill what the
 * variants would (a variant's own branch in shared code is then triaged by hand). This halves the bench's time.
 */
const WITH_VARIANTS = process.env.PROVCERT_MUTATION_VARIANTS === '1';

const RUNS: ReadonlyArray<{ authMethod: AuthMethod; variant: Variant }> = [
  ...(['API_KEY', 'BEARER_TOKEN', 'HMAC_SIGNATURE'] as const).map((authMethod) => ({
    authMethod,
    variant: 'standard' as const,
  })),
  ...(WITH_VARIANTS && 'variants' in loaded ? loaded.variants.filter((v) => !NOT_CERTIFIED_HERE.has(v)) : []).map(
    (variant) => ({ authMethod: 'API_KEY' as const, variant }),
  ),
];

describe('certification of the reference provider', () => {
  test.each(RUNS)('$variant on $authMethod passes', async ({ authMethod, variant }) => {
    if ('error' in loaded) throw new Error(`the reference provider did not load: ${String(loaded.error)}`);
    const { report } = await loaded.certify({ authMethod, variant });
    const failing = report.checks.filter((c) => c.status !== 'pass' && c.status !== 'skip').map((c) => c.id);
    expect({ verdict: report.verdict, failing }).toEqual({ verdict: 'PASS', failing: [] });
  });
});
