import { describe, expect, it } from 'vitest';
import type { CheckId } from '../../src/model/check-ids.js';
import type { Variant } from '../../src/reference-provider/index.js';
import { certify } from '../support/certify.js';
import { undeclaredCitations } from '../support/citations.js';

/**
 * Conforming providers come in more than one shape. Each variant of the reference provider must pass the
 * whole certification; where the contract is ambiguous (DECISIONS.md) the run warns instead of failing.
 */
interface ExpectedWarning {
  why: string;
  /** The checks that read the value; one of them must warn. */
  checks: CheckId[];
  warning: RegExp;
  /** The requirement whose sentence the warning is about: the warning must cite it. */
  requirement: string;
}

const cases: [Variant, ExpectedWarning[]][] = [
  ['standard', []],
  [
    'minimal',
    [
      {
        why: 'health timestamp without offset',
        checks: ['health'],
        warning: /timestamp .* has no UTC offset/,
        requirement: 'TIMESTAMPS-ISO8601',
      },
      {
        why: 'catalog updatedAt without offset',
        checks: ['catalog'],
        warning: /updatedAt .* has no UTC offset/,
        requirement: 'TIMESTAMPS-ISO8601',
      },
      {
        why: 'an AWAITING_PAYMENT action without the optional paymentStatus',
        checks: ['payment-pending'],
        warning: /paymentStatus/,
        requirement: 'ACTION-PAYMENT-STATUS-PENDING',
      },
      {
        why: 'quote expiresAt without offset',
        checks: ['quote-math'],
        warning: /POST \/quote: \/expiresAt .* has no UTC offset/,
        requirement: 'TIMESTAMPS-ISO8601',
      },
      {
        why: 'action createdAt without offset',
        checks: ['payment-pending', 'action-status'],
        warning: /\/createdAt .* has no UTC offset/,
        requirement: 'TIMESTAMPS-ISO8601',
      },
      {
        why: 'event timestamp without offset',
        checks: ['webhook'],
        warning: /^event .*: \/timestamp .* has no UTC offset/,
        requirement: 'TIMESTAMPS-ISO8601',
      },
    ],
  ],
  [
    'noisy',
    [
      {
        why: 'a reason code outside the suggested list',
        checks: ['webhook'],
        warning: /^event .*: \/reasonCode .*/,
        requirement: 'WEBHOOK-TERMINAL-REASON',
      },
    ],
  ],
  [
    'id-lookup-only',
    [
      {
        why: 'GET /actions/{publicId} is not answered (the contract looks actions up by id)',
        checks: ['action-status'],
        warning: /\(by publicId\) did not answer 200 with the action/,
        requirement: 'ROUTE-ACTION-STATUS',
      },
    ],
  ],
];

describe.concurrent('every conforming variant of the reference provider passes certification', () => {
  it.each(cases)('%s: PASS, no failed or errored check, the expected warnings', async (variant, expectedWarnings) => {
    const { report } = await certify({ variant });
    const problems = report.checks
      .filter((c) => c.status === 'fail' || c.status === 'error')
      .map((c) => `${c.id} (${c.status}): ${c.message}`);
    expect(problems).toEqual([]);
    expect(report.verdict).toBe('PASS');
    expect(undeclaredCitations(report)).toEqual([]);

    const warnings = report.checks.flatMap((c) =>
      c.findings
        .filter((f) => f.severity === 'warn')
        .map((f) => ({ check: c.id, text: f.message, cites: f.requirement })),
    );
    const listed = warnings.map((w) => `${w.check}: [${w.cites}] ${w.text}`).join('\n');
    // Each expected warning is there, from a check that reads the value, citing the sentence it is about.
    const missing = expectedWarnings
      .filter(
        ({ checks, warning, requirement }) =>
          !warnings.some((w) => checks.includes(w.check) && warning.test(w.text) && w.cites === requirement),
      )
      .map(
        ({ why, checks, warning, requirement }) =>
          `${why}: no warning matching ${String(warning)} from ${checks.join(' or ')} citing ${requirement}`,
      );
    expect(missing, `warnings:\n${listed}`).toEqual([]);
    if (variant === 'noisy') {
      // Every event is delivered twice; the repeat is acknowledged and recognised as a duplicate.
      expect(report.webhooks.events.some((e) => e.duplicate === true)).toBe(true);
    }
  });

  it('--strict fails the minimal variant on the warnings that pass it by default, citing the same requirements', async () => {
    const { report } = await certify({ variant: 'minimal', strict: true, only: ['health', 'catalog'] });
    expect(report.verdict).toBe('FAIL');
    expect(report.strict).toBe(true);
    const health = report.checks.find((c) => c.id === 'health');
    expect(health?.status).toBe('fail');
    expect(health?.findings).toContainEqual(
      expect.objectContaining({
        severity: 'fail',
        requirement: 'TIMESTAMPS-ISO8601',
        message: expect.stringMatching(/^\(strict\) GET \/health: \/timestamp .* has no UTC offset/),
      }),
    );
  });
});
