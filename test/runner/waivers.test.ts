import { describe, expect, it } from 'vitest';
import type { CheckId, CheckStatus } from '../../src/model/check-ids.js';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import type { ExpectedFailure, WaiverState } from '../../src/model/waivers.js';
import { evaluateWaivers, previewWaivers, utcDate, type WaiverRun } from '../../src/runner/waivers.js';

const TODAY = '2026-03-10';

function result(id: CheckId, status: CheckStatus, cites: string[] = []): CheckResult {
  return {
    id,
    title: id,
    rule: `rule of ${id}`,
    requirements: [`${id.toUpperCase()}-RULE`],
    status,
    message: status === 'skip' ? 'QUOTE is not declared' : `${id} ${status}`,
    durationMs: 1,
    evidence: [],
    findings: cites.map((requirement) => ({
      severity: 'fail' as const,
      requirement,
      message: `breaks ${requirement}`,
    })),
  };
}

function report(slug: string, checks: CheckResult[]): RunReport {
  const summary = { pass: 0, fail: 0, skip: 0, error: 0, untested: 0 };
  for (const c of checks) summary[c.status]++;
  return {
    reportVersion: 1,
    tool: { name: 'provcert', version: '0.0.0' },
    contract: { version: '1.0.0', spec: '1.0.0' },
    provider: { baseUrl: `http://${slug}.test`, slug, authMethod: 'API_KEY', capabilities: [] },
    verdict: summary.fail + summary.error === 0 && summary.pass > 0 ? 'PASS' : 'FAIL',
    startedAt: `${TODAY}T08:00:00.000Z`,
    finishedAt: `${TODAY}T08:01:00.000Z`,
    durationMs: 60_000,
    summary,
    checks,
    webhooks: { url: 'http://127.0.0.1/hooks', events: [] },
    requirements: {},
    inputs: {},
  };
}

const waiver = (fields: Partial<ExpectedFailure> = {}): ExpectedFailure => ({
  check: 'quote-math',
  reason: 'rounding fix ships in 2.4 (JIRA-12)',
  until: '2026-03-31',
  ...fields,
});

/** quote-math failing on QUOTE-TOTAL, health passing. */
const failingQuote = (slug = 'north'): WaiverRun => ({
  slug,
  report: report(slug, [result('health', 'pass'), result('quote-math', 'fail', ['QUOTE-TOTAL'])]),
});
const passingQuote = (slug = 'south'): WaiverRun => ({
  slug,
  report: report(slug, [result('health', 'pass'), result('quote-math', 'pass')]),
});
const skippedQuote = (slug = 'east'): WaiverRun => ({
  slug,
  report: report(slug, [result('health', 'pass'), result('quote-math', 'skip')]),
});

interface Case {
  given: { waivers: ExpectedFailure[]; runs: WaiverRun[]; today?: string; partial?: boolean };
  want: { states: WaiverState[]; verdicts: (RunReport['verdict'] | undefined)[]; waived: number; message?: RegExp };
}

/** quote-math failing on two requirements at once. */
const twoFailures = (slug = 'north'): WaiverRun => ({
  slug,
  report: report(slug, [result('health', 'pass'), result('quote-math', 'fail', ['QUOTE-TOTAL', 'QUOTE-FEES'])]),
});

const cases: [string, Case][] = [
  [
    'a requirement waiver does not hide another failing requirement of the same check',
    {
      given: { waivers: [waiver({ requirement: 'QUOTE-TOTAL' })], runs: [twoFailures()] },
      want: { states: ['applied'], verdicts: ['FAIL'], waived: 0 },
    },
  ],
  [
    'waivers that together cover every failing requirement of a check waive it',
    {
      given: {
        waivers: [waiver({ requirement: 'QUOTE-TOTAL' }), waiver({ requirement: 'QUOTE-FEES' })],
        runs: [twoFailures()],
      },
      want: { states: ['applied', 'applied'], verdicts: ['PASS'], waived: 1 },
    },
  ],
  [
    'a matching failure is waived and the run passes',
    {
      given: { waivers: [waiver()], runs: [failingQuote()] },
      want: { states: ['applied'], verdicts: ['PASS'], waived: 1, message: /waived 1 failure of quote-math on north/ },
    },
  ],
  [
    'an error result is waived too',
    {
      given: {
        waivers: [waiver()],
        runs: [{ slug: 'n', report: report('n', [result('health', 'pass'), result('quote-math', 'error')]) }],
      },
      want: { states: ['applied'], verdicts: ['PASS'], waived: 1 },
    },
  ],
  [
    'the requirement a failing finding cites matches',
    {
      given: { waivers: [waiver({ requirement: 'QUOTE-TOTAL' })], runs: [failingQuote()] },
      want: { states: ['applied'], verdicts: ['PASS'], waived: 1 },
    },
  ],
  [
    'a requirement no finding cites matches nothing',
    {
      given: { waivers: [waiver({ requirement: 'QUOTE-SUBTOTAL' })], runs: [failingQuote()] },
      want: {
        states: ['unmatched'],
        verdicts: ['FAIL'],
        waived: 0,
        message: /quote-math failed, but not on QUOTE-SUBTOTAL \(it cited QUOTE-TOTAL\)/,
      },
    },
  ],
  [
    'the valid-through day still waives',
    {
      given: { waivers: [waiver({ until: TODAY })], runs: [failingQuote()] },
      want: { states: ['applied'], verdicts: ['PASS'], waived: 1 },
    },
  ],
  [
    'the day after, it has expired and the failure counts again',
    {
      given: { waivers: [waiver({ until: '2026-03-09' })], runs: [failingQuote()] },
      want: {
        states: ['expired'],
        verdicts: ['FAIL'],
        waived: 0,
        message: /expired on 2026-03-09 \(today is 2026-03-10\): quote-math failed on north and counts again/,
      },
    },
  ],
  [
    'an expired waiver fails the gate even when its check passes',
    {
      given: { waivers: [waiver({ until: '2025-12-31' })], runs: [passingQuote()] },
      want: { states: ['expired'], verdicts: ['FAIL'], waived: 0, message: /matches no failure now: remove it/ },
    },
  ],
  [
    'a check that now passes makes the waiver stale',
    {
      given: { waivers: [waiver()], runs: [passingQuote()] },
      want: {
        states: ['stale'],
        verdicts: ['FAIL'],
        waived: 0,
        message: /^quote-math passed on south: remove this waiver$/,
      },
    },
  ],
  [
    'a skipped check leaves the waiver unmatched',
    {
      given: { waivers: [waiver()], runs: [skippedQuote()] },
      want: { states: ['unmatched'], verdicts: ['FAIL'], waived: 0, message: /quote-math was skipped \(QUOTE is not/ },
    },
  ],
  [
    'a check that did not run leaves the waiver unmatched',
    {
      given: { waivers: [waiver({ check: 'cancel' })], runs: [failingQuote()] },
      want: { states: ['unmatched'], verdicts: ['FAIL'], waived: 0, message: /cancel did not run/ },
    },
  ],
  [
    'another provider than the one certified: unmatched',
    {
      given: { waivers: [waiver({ provider: 'south' })], runs: [failingQuote('north')] },
      want: {
        states: ['unmatched'],
        verdicts: ['FAIL'],
        waived: 0,
        message: /provider south is not the one certified \(north\)/,
      },
    },
  ],
  [
    'a provider-named waiver waives only that provider',
    {
      given: { waivers: [waiver({ provider: 'b' })], runs: [failingQuote('a'), failingQuote('b')] },
      want: { states: ['applied'], verdicts: ['FAIL', 'PASS'], waived: 1 },
    },
  ],
  [
    'a provider-less waiver applied somewhere keeps a passing provider green',
    {
      given: { waivers: [waiver()], runs: [failingQuote('a'), passingQuote('b')] },
      want: { states: ['applied'], verdicts: ['PASS', 'PASS'], waived: 1 },
    },
  ],
  [
    'a provider-less waiver stale everywhere fails the providers where its check passed',
    {
      given: { waivers: [waiver()], runs: [passingQuote('a'), skippedQuote('b')] },
      want: { states: ['stale'], verdicts: ['FAIL', 'PASS'], waived: 0, message: /passed on a: remove/ },
    },
  ],
  [
    'a provider-less waiver that matches nothing in a fleet is judged on each provider too',
    {
      given: { waivers: [waiver({ check: 'cancel' })], runs: [failingQuote('a'), passingQuote('b')] },
      want: { states: ['unmatched'], verdicts: ['FAIL', 'FAIL'], waived: 0 },
    },
  ],
  [
    'a waiver never covers a root cause: metadata failing while the checks it stopped are skipped',
    {
      given: {
        waivers: [waiver({ check: 'metadata' })],
        runs: [
          {
            slug: 'north',
            report: report('north', [
              result('health', 'pass'),
              result('metadata', 'fail', ['SAFE-TEST-ENVIRONMENT']),
              { ...result('quote-expiry', 'skip'), skippedBecauseOf: 'metadata' },
            ]),
          },
        ],
      },
      want: { states: ['unmatched'], verdicts: ['FAIL'], waived: 0, message: /root cause.*1 other check was skipped/ },
    },
  ],
  [
    'a waiver far in the future still applies, and its outcome warns',
    {
      given: { waivers: [waiver({ until: '9999-12-31' })], runs: [failingQuote('a')] },
      want: {
        states: ['applied'],
        verdicts: ['PASS'],
        waived: 1,
        message: /warning: 9999-12-31 is more than 365 days/,
      },
    },
  ],
  [
    'a provider that was not certified is named',
    {
      given: { waivers: [waiver({ provider: 'gone' })], runs: [passingQuote('a'), { slug: 'gone' }] },
      want: { states: ['unmatched'], verdicts: ['PASS', undefined], waived: 0, message: /gone was not certified/ },
    },
  ],
  [
    'an unwaived failure beside a waived one still fails the run',
    {
      given: {
        waivers: [waiver()],
        runs: [
          {
            slug: 'n',
            report: report('n', [result('health', 'fail', ['HEALTH-RULE']), result('quote-math', 'fail', ['Q'])]),
          },
        ],
      },
      want: { states: ['applied'], verdicts: ['FAIL'], waived: 1 },
    },
  ],
  [
    'every failure waived but nothing passed is no pass',
    {
      given: { waivers: [waiver()], runs: [{ slug: 'n', report: report('n', [result('quote-math', 'fail', ['Q'])]) }] },
      want: { states: ['applied'], verdicts: ['FAIL'], waived: 1 },
    },
  ],
  [
    'two waivers describing one failure are both applied',
    {
      given: { waivers: [waiver(), waiver({ requirement: 'QUOTE-TOTAL', reason: 'second' })], runs: [failingQuote()] },
      want: { states: ['applied', 'applied'], verdicts: ['PASS'], waived: 1 },
    },
  ],
  [
    'in a shard, a waiver naming a provider of another shard is left out',
    {
      given: { waivers: [waiver({ provider: 'elsewhere' })], runs: [failingQuote('a')], partial: true },
      want: { states: [], verdicts: ['FAIL'], waived: 0 },
    },
  ],
  [
    'in a shard, a provider-less waiver that waives nothing is left out',
    {
      given: { waivers: [waiver()], runs: [passingQuote('a')], partial: true },
      want: { states: [], verdicts: ['PASS'], waived: 0 },
    },
  ],
  [
    'in a shard, a provider-less expired waiver with a failure here is reported',
    {
      given: { waivers: [waiver({ until: '2026-01-01' })], runs: [failingQuote('a')], partial: true },
      want: { states: ['expired'], verdicts: ['FAIL'], waived: 0 },
    },
  ],
];

/** A check that verifies `requirement` (it cites it), failing on `cites`. */
function verifying(id: CheckId, status: CheckStatus, requirement: string, cites: string[] = []): CheckResult {
  return { ...result(id, status, cites), requirements: [requirement] };
}
/** quote-math and quote-explore both verifying QUOTE-TOTAL, with the given statuses and failing citations. */
const twoChecks = (
  math: [CheckStatus, string[]],
  explore: [CheckStatus, string[]],
  slug = 'north',
  extra: CheckResult[] = [],
): WaiverRun => ({
  slug,
  report: report(slug, [
    result('health', 'pass'),
    verifying('quote-math', math[0], 'QUOTE-TOTAL', math[1]),
    verifying('quote-explore', explore[0], 'QUOTE-TOTAL', explore[1]),
    ...extra,
  ]),
});
const byRequirement = (fields: Partial<ExpectedFailure> = {}): ExpectedFailure => {
  const { check: _check, ...rest } = waiver({ requirement: 'QUOTE-TOTAL', ...fields });
  return rest;
};

const requirementOnlyCases: [string, Case][] = [
  [
    'a requirement alone waives every check failing on it',
    {
      given: { waivers: [byRequirement()], runs: [twoChecks(['fail', ['QUOTE-TOTAL']], ['fail', ['QUOTE-TOTAL']])] },
      want: {
        states: ['applied'],
        verdicts: ['PASS'],
        waived: 2,
        message: /^waived 2 failures of quote-math, quote-explore on QUOTE-TOTAL on north until 2026-03-31$/,
      },
    },
  ],
  [
    'a requirement alone never hides another requirement failing in the same check',
    {
      given: {
        waivers: [byRequirement()],
        runs: [twoChecks(['fail', ['QUOTE-TOTAL', 'QUOTE-FEES']], ['fail', ['QUOTE-TOTAL']])],
      },
      want: { states: ['applied'], verdicts: ['FAIL'], waived: 1 },
    },
  ],
  [
    'a requirement alone never covers a root cause',
    {
      given: {
        waivers: [byRequirement()],
        runs: [
          twoChecks(['fail', ['QUOTE-TOTAL']], ['pass', []], 'north', [
            { ...result('quote-binding', 'skip'), skippedBecauseOf: 'quote-math' },
          ]),
        ],
      },
      want: {
        states: ['unmatched'],
        verdicts: ['FAIL'],
        waived: 0,
        message: /quote-math failed on QUOTE-TOTAL but is a root cause/,
      },
    },
  ],
  [
    'a requirement alone is stale when every check citing it passed',
    {
      given: { waivers: [byRequirement()], runs: [twoChecks(['pass', []], ['pass', []])] },
      want: {
        states: ['stale'],
        verdicts: ['FAIL'],
        waived: 0,
        message: /^every check citing QUOTE-TOTAL passed on north: remove this waiver$/,
      },
    },
  ],
  [
    'a requirement alone is not stale while a check citing it fails on something else',
    {
      given: { waivers: [byRequirement()], runs: [twoChecks(['pass', []], ['fail', ['QUOTE-FEES']])] },
      want: {
        states: ['unmatched'],
        verdicts: ['FAIL'],
        waived: 0,
        message: /^matches no failure: no check failed on QUOTE-TOTAL$/,
      },
    },
  ],
  [
    'a requirement no check that ran cites is unmatched and says so',
    {
      given: { waivers: [byRequirement({ requirement: 'WEBHOOK-SIGNATURE' })], runs: [failingQuote()] },
      want: {
        states: ['unmatched'],
        verdicts: ['FAIL'],
        waived: 0,
        message: /^matches no failure: no check citing WEBHOOK-SIGNATURE ran$/,
      },
    },
  ],
  [
    'a requirement whose checks were all skipped is unmatched and names them',
    {
      given: { waivers: [byRequirement()], runs: [twoChecks(['skip', []], ['skip', []])] },
      want: {
        states: ['unmatched'],
        verdicts: ['FAIL'],
        waived: 0,
        message: /every check citing QUOTE-TOTAL was skipped \(quote-math, quote-explore\)/,
      },
    },
  ],
  [
    'an expired requirement alone names the checks whose failures count again',
    {
      given: {
        waivers: [byRequirement({ until: '2026-03-01' })],
        runs: [twoChecks(['fail', ['QUOTE-TOTAL']], ['fail', ['QUOTE-TOTAL']])],
      },
      want: {
        states: ['expired'],
        verdicts: ['FAIL'],
        waived: 0,
        message:
          /^expired on 2026-03-01 \(today is 2026-03-10\): quote-math, quote-explore on QUOTE-TOTAL failed on north and counts again/,
      },
    },
  ],
  [
    'a requirement alone for another provider leaves this one failing',
    {
      given: {
        waivers: [byRequirement({ provider: 'south' })],
        runs: [twoChecks(['fail', ['QUOTE-TOTAL']], ['fail', ['QUOTE-TOTAL']], 'north'), passingQuote('south')],
      },
      want: {
        states: ['unmatched'],
        verdicts: ['FAIL', 'FAIL'],
        waived: 0,
        message: /no check citing QUOTE-TOTAL ran/,
      },
    },
  ],
];

describe('evaluateWaivers', () => {
  it.each([...cases, ...requirementOnlyCases])('%s', (_name, { given, want }) => {
    const { reports, outcomes } = evaluateWaivers(given.waivers, given.runs, given.today ?? TODAY, {
      partial: given.partial === true,
    });
    expect(outcomes.map((o) => o.state)).toEqual(want.states);
    expect(reports.map((r) => r?.verdict)).toEqual(want.verdicts);
    const waived = reports.flatMap((r) => r?.checks.filter((c) => c.waiver !== undefined) ?? []);
    expect(waived).toHaveLength(want.waived);
    for (const c of waived) expect(['fail', 'error']).toContain(c.status);
    if (want.message) expect(outcomes[0]?.message).toMatch(want.message);
  });

  it('marks the waived result with the first covering waiver, and the report with what concerns it', () => {
    const { reports } = evaluateWaivers([waiver(), waiver({ reason: 'second' })], [failingQuote()], TODAY);
    const quote = reports[0]?.checks.find((c) => c.id === 'quote-math');
    expect(quote?.waiver).toEqual({ reason: 'rounding fix ships in 2.4 (JIRA-12)', until: '2026-03-31' });
    expect(quote?.status).toBe('fail');
    expect(reports[0]?.waivers?.map((w) => [w.reason, w.state])).toEqual([
      ['rounding fix ships in 2.4 (JIRA-12)', 'applied'],
      ['second', 'applied'],
    ]);
  });

  it('leaves the given reports unchanged and replaces an earlier judgement', () => {
    const runs = [failingQuote()];
    const before = structuredClone(runs);
    const first = evaluateWaivers([waiver()], runs, TODAY);
    expect(runs).toEqual(before);
    // merge-reports judges a judged shard report again: without the waiver it is a plain failure.
    const again = evaluateWaivers([], [{ slug: 'north', report: first.reports[0] as RunReport }], TODAY);
    expect(again.reports[0]?.verdict).toBe('FAIL');
    expect(again.reports[0]?.waivers).toBeUndefined();
    expect(again.reports[0]?.checks.some((c) => c.waiver)).toBe(false);
  });

  it('without waivers, a report keeps its verdict', () => {
    const { reports, outcomes } = evaluateWaivers([], [passingQuote(), failingQuote()], TODAY);
    expect(outcomes).toEqual([]);
    expect(reports.map((r) => r?.verdict)).toEqual(['PASS', 'FAIL']);
  });
});

describe('utcDate', () => {
  it.each([
    ['2026-03-10T23:59:59.999Z', '2026-03-10'],
    ['2026-03-10T23:30:00-02:00', '2026-03-11'],
    ['2026-03-11T00:30:00+02:00', '2026-03-10'],
  ])('%s is %s in UTC', (iso, day) => {
    expect(utcDate(new Date(iso))).toBe(day);
  });
});

describe('previewWaivers', () => {
  it('marks a covered check as it ends, once the slug is known', () => {
    const seen: CheckResult[] = [];
    const hooks = previewWaivers({ onCheckEnd: (r: CheckResult) => seen.push(r) }, [waiver({ provider: 'n' })], TODAY);
    hooks.onCheckEnd?.(result('quote-math', 'fail'));
    hooks.onRunStart?.({
      baseUrl: 'http://n.test',
      webhookUrl: 'http://w',
      profile: 'TRANSACTIONAL',
      slug: 'n',
      checks: 2,
    });
    hooks.onCheckEnd?.(result('quote-math', 'fail'));
    hooks.onCheckEnd?.(result('health', 'fail'));
    expect(seen.map((r) => r.waiver?.until)).toEqual([undefined, '2026-03-31', undefined]);
  });
});
