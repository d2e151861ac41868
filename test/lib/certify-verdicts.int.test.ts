import { certify } from '../../src/lib/certify.js';
import { describe, expect, test as it, type ReferenceForRun } from '../support/fixtures.js';

/** The verdict states through the library: what the run reached, never more than was checked. */

// One reference provider for the file (the integration tier's fixture), reset before each test.
const options = ({ provider, webhookPort, credential, webhookSecret }: ReferenceForRun) =>
  ({
    baseUrl: provider.url,
    auth: 'API_KEY',
    credential,
    webhookSecret,
    local: true,
    webhookPort,
  }) as const;

describe('certify() verdicts', () => {
  it('INTERRUPTED when aborted early, naming what stopped it; what did not run is not passed', async ({
    reference,
  }) => {
    const stop = new AbortController();
    const report = await certify({
      ...options(reference),
      signal: stop.signal,
      // Stop once the first check is done: the waits (quote expiry, webhooks) never finish.
      onCheckEnd: () => stop.abort(),
    });
    expect(report.verdict).toBe('INTERRUPTED');
    expect(report.interruptedBy).toBe('aborted');
    expect(report.summary.skip).toBeGreaterThan(0);
    // What the stop kept from running is recorded: each a skip in the results, none that finished.
    const notRun = report.notRun ?? [];
    expect(notRun.length).toBeGreaterThan(0);
    const status = new Map(report.checks.map((c) => [c.id, c.status]));
    for (const id of notRun) expect(status.get(id), id).toBe('skip');
    expect(notRun).not.toContain(report.checks.find((c) => c.status === 'pass')?.id);
  }, 60_000);

  it('INTERRUPTED before GET /provider-info was answered: no root cause is blamed, every check is recorded as not run', async ({
    reference,
  }) => {
    const stop = new AbortController();
    stop.abort('SIGINT');
    const report = await certify({ ...options(reference), signal: stop.signal });
    expect(report.verdict).toBe('INTERRUPTED');
    expect(report.interruptedBy).toBe('SIGINT');
    expect(report.notRun).toEqual(report.checks.map((c) => c.id));
    expect(report.checks.every((c) => c.status === 'skip')).toBe(true);
  }, 60_000);

  it('INCOMPLETE when a rule cannot be tested within the limits: never PASS, the setting that tests it named', async ({
    reference,
  }) => {
    // The reference provider's quotes outlive a 1 s wait: quote-expiry cannot see one expire.
    const report = await certify({ ...options(reference), only: ['quote-expiry'], maxExpiryWait: 1 });
    expect(report.verdict).toBe('INCOMPLETE');
    const expiry = report.checks.find((c) => c.id === 'quote-expiry');
    expect(expiry?.status).toBe('untested');
    expect(expiry?.findings.filter((f) => f.severity === 'fail')).toEqual([]);
    // The library spells the setting as its option, not as the CLI's flag.
    expect(expiry?.message).toMatch(/maxExpiryWait: \d+/);
    expect(report.summary.untested).toBe(1);
  }, 60_000);

  it('PARTIAL with only/skip: the checks of the profile left out are named and counted', async ({ reference }) => {
    const report = await certify({ ...options(reference), only: ['health', 'catalog'] });
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ['health', 'pass'],
      ['catalog', 'pass'],
      ['signature', 'skip'],
    ]);
    expect(report.verdict).toBe('PARTIAL');
    const leftOut = report.leftOut ?? [];
    expect(leftOut.map((l) => l.id)).toContain('quote-math');
    expect(leftOut.map((l) => l.id)).not.toContain('health');
    // Every check of the reference provider's full profile is either run or left out.
    expect(report.checks.length + leftOut.length).toBeGreaterThanOrEqual(20);

    const skipped = await certify({ ...options(reference), skip: ['quote-expiry', 'webhook'] });
    expect(skipped.verdict).toBe('PARTIAL');
    expect(skipped.leftOut).toEqual([
      { id: 'quote-expiry', reason: 'left out by the skip list' },
      { id: 'webhook', reason: 'left out by the skip list' },
    ]);
  }, 60_000);

  it('strict with local: the warnings local itself causes stay warnings, and the report says so', async ({
    reference,
  }) => {
    const report = await certify({ ...options(reference), only: ['base-url', 'health'], strict: true });
    const baseUrl = report.checks.find((c) => c.id === 'base-url');
    expect(baseUrl?.status).toBe('pass');
    expect(baseUrl?.warnings?.some((w) => /http:\/\//.test(w))).toBe(true);
    expect(report.strictExempted?.map((e) => e.check)).toContain('base-url');
    expect(report.strictExempted?.[0]?.reason).toMatch(/local run setting/);
    expect(report.verdict).toBe('PARTIAL');
  }, 60_000);
});
