import { beforeAll, describe, expect, it } from 'vitest';
import { mergeFleetReports } from '../../src/fleet/merge-reports.js';
import { shardOf } from '../../src/fleet/shard.js';
import { UsageError } from '../../src/model/errors.js';
import type { FleetProviderResult, FleetReport } from '../../src/model/fleet-report.js';
import type { RunReport } from '../../src/model/report.js';
import type { ExpectedFailure } from '../../src/model/waivers.js';
import { renderFleetJson } from '../../src/report/fleet/json.js';
import { fleetReportValidator } from '../../src/report/fleet/read.js';
import { evaluateWaivers } from '../../src/runner/waivers.js';
import { DIGEST, fleetOf, providerResult, realReports } from '../report/fleet/sample.js';

/** One provider per shard of 3: west-kitchen in 1, south-kitchen in 2, north-kitchen in 3. */
const SLUGS = ['north-kitchen', 'south-kitchen', 'west-kitchen'];
const BASE_URLS = Object.fromEntries(SLUGS.map((slug) => [slug, `https://${slug}.example`]));
const TODAY = '2025-03-02';

let passing: RunReport;
let failing: RunReport;

beforeAll(async () => {
  ({ passing, failing } = await realReports());
}, 60_000);

/** A shard's fleet report, the way `batch --shard index/3` writes it. */
function shard(index: number, providers: FleetProviderResult[], extra: Partial<FleetReport> = {}): FleetReport {
  return fleetOf(providers, {
    shard: { index, total: 3 },
    fleet: { name: 'kitchen-partners', digest: DIGEST, slugs: SLUGS, baseUrls: BASE_URLS },
    ...extra,
  });
}

/** The three shards: south-kitchen fails quote-math, the others pass. */
function shards(extra: Partial<FleetReport> = {}): FleetReport[] {
  return [
    shard(1, [providerResult('west-kitchen', passing)], extra),
    shard(2, [providerResult('south-kitchen', failing)], extra),
    shard(3, [providerResult('north-kitchen', passing)], extra),
  ];
}

const merge = (reports: FleetReport[]): { report: FleetReport; warnings: string[] } => {
  const warnings: string[] = [];
  const report = mergeFleetReports(reports, { today: TODAY, warn: (line) => warnings.push(line) });
  return { report, warnings };
};

describe('mergeFleetReports', () => {
  it('the sample slugs fall one in each shard of 3', () => {
    expect(SLUGS.map((s) => shardOf(s, 3))).toEqual([3, 2, 1]);
  });

  it('combines the shards into one fleet report, providers in fleet order, valid against the schema', () => {
    const { report, warnings } = merge(shards().reverse());
    expect(warnings).toEqual([]);
    expect(report.shard).toBeUndefined();
    expect(report.mergedShards).toEqual([1, 2, 3].map((index) => ({ index, total: 3 })));
    expect(report.providers.map((p) => [p.slug, p.verdict])).toEqual([
      ['north-kitchen', 'PASS'],
      ['south-kitchen', 'FAIL'],
      ['west-kitchen', 'PASS'],
    ]);
    expect(report).toMatchObject({
      verdict: 'FAIL',
      summary: { providers: 3, passed: 2, failed: 1, notRun: 0, waivedChecks: 0 },
    });
    const validate = fleetReportValidator();
    expect(validate(JSON.parse(renderFleetJson(report))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('passes when every shard passed', () => {
    const green = [
      shard(1, [providerResult('west-kitchen', passing)]),
      shard(3, [providerResult('north-kitchen', passing)]),
    ];
    green.splice(1, 0, shard(2, [providerResult('south-kitchen', passing)]));
    expect(merge(green).report.verdict).toBe('PASS');
  });

  it.each([
    [
      'different fleets',
      (r: FleetReport[]) => {
        r[1] = { ...(r[1] as FleetReport), fleet: { name: 'other', digest: DIGEST, slugs: SLUGS } };
      },
      /^cannot merge reports of different fleets: "kitchen-partners" \(shard 1\/3\) and "other" \(shard 2\/3\)$/,
    ],
    [
      'another version of the fleet file',
      (r: FleetReport[]) => {
        r[2] = { ...(r[2] as FleetReport), fleet: { name: 'kitchen-partners', digest: 'b'.repeat(64), slugs: SLUGS } };
      },
      /^cannot merge reports of different versions of fleet "kitchen-partners": the fleet file changed between shard 1\/3 and shard 3\/3/,
    ],
    [
      'different provcert versions',
      (r: FleetReport[]) => {
        r[1] = { ...(r[1] as FleetReport), tool: { name: 'provcert', version: '9.9.9' } };
      },
      /^cannot merge reports of different provcert versions: 0\.1\.0 \(shard 1\/3\) and 9\.9\.9 \(shard 2\/3\)/,
    ],
    [
      'different shard totals',
      (r: FleetReport[]) => {
        r[2] = { ...(r[2] as FleetReport), shard: { index: 3, total: 4 } };
      },
      /^cannot merge shards of different splits: 1\/3, 2\/3, 3\/4; every shard must be run with the same shard …\/n$/,
    ],
    [
      'a shard given twice',
      (r: FleetReport[]) => {
        r.push(shard(2, []));
      },
      /^shard 2\/3 is given twice; pass each shard's fleet\.json once$/,
    ],
    [
      'a provider in two shards',
      (r: FleetReport[]) => {
        r[2] = shard(3, [providerResult('north-kitchen', passing), providerResult('west-kitchen', passing)]);
      },
      /^provider west-kitchen is in two shard reports \(1\/3 and 3\/3\); each provider must be certified in one shard only$/,
    ],
  ])('refuses %s with one clear line', (_name, spoil, message) => {
    const reports = shards();
    spoil(reports);
    expect(() => merge(reports)).toThrow(UsageError);
    expect(() => merge(reports)).toThrow(message);
  });

  it('refuses nothing to merge', () => {
    expect(() => merge([])).toThrow('merge-reports needs at least one fleet.json');
  });

  it('warns about a missing shard and reports its providers NOT_RUN, failing the gate', () => {
    const [one, , three] = shards();
    const { report, warnings } = merge([one as FleetReport, three as FleetReport]);
    expect(warnings).toEqual(['shard 2/3 is missing: its provider south-kitchen is reported NOT_RUN']);
    expect(report.providers.find((p) => p.slug === 'south-kitchen')).toEqual({
      slug: 'south-kitchen',
      // The fleet identity recorded every provider's address: the lost shard's provider is named with its own.
      baseUrl: 'https://south-kitchen.example',
      verdict: 'NOT_RUN',
      error: 'not run: the report of its shard 2/3 was not merged',
    });
    expect(report).toMatchObject({ verdict: 'FAIL', summary: { providers: 3, passed: 2, notRun: 1 } });
    expect(report.mergedShards).toEqual([
      { index: 1, total: 3 },
      { index: 3, total: 3 },
    ]);
  });

  it('keeps a provider whose rule was not tested INCOMPLETE: the merged fleet is INCOMPLETE, never PASS', () => {
    const incomplete = structuredClone(passing);
    const expiry = incomplete.checks.find((c) => c.id === 'quote-expiry');
    if (!expiry) throw new Error('the sample run has no quote-expiry');
    const untested = {
      requirement: 'ACTION-EXPIRED-QUOTE-NO-ACTION',
      reason: 'quote q-1 is valid for 900 s, longer than the run waits for a quote to expire (--max-expiry-wait 120)',
      remedy: 'rerun with --max-expiry-wait 910',
    };
    Object.assign(expiry, {
      status: 'untested',
      message: `${untested.requirement} not tested: ${untested.reason}; to test it: ${untested.remedy}`,
      findings: [],
      untested: [untested],
    });
    incomplete.summary = { ...incomplete.summary, pass: incomplete.summary.pass - 1, untested: 1 };
    incomplete.verdict = 'INCOMPLETE';
    const reports = [
      shard(1, [providerResult('west-kitchen', passing)]),
      shard(2, [providerResult('south-kitchen', incomplete)]),
      shard(3, [providerResult('north-kitchen', passing)]),
    ];
    const { report, warnings } = merge(reports);
    expect(warnings).toEqual([]);
    expect(report.providers.find((p) => p.slug === 'south-kitchen')?.verdict).toBe('INCOMPLETE');
    expect(report.verdict).toBe('INCOMPLETE');
    expect(report.summary).toMatchObject({ passed: 2, failed: 0, incomplete: 1 });
    const validate = fleetReportValidator();
    expect(validate(JSON.parse(renderFleetJson(report))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('keeps the stop of an interrupted shard, and its verdict is INTERRUPTED', () => {
    const reports = shards();
    reports[0] = { ...(reports[0] as FleetReport), interruptedBy: 'SIGTERM' };
    reports[1] = shard(2, [providerResult('south-kitchen', passing)]);
    const { report } = merge(reports);
    expect(report.interruptedBy).toBe('shard 1/3: SIGTERM');
    expect(report.verdict).toBe('INTERRUPTED');
  });
});

describe('mergeFleetReports judges the waivers again over the whole fleet', () => {
  const waiver = (over: Partial<ExpectedFailure>): ExpectedFailure => ({
    check: 'quote-math',
    reason: 'rounding of option prices is being fixed (TICKET-123)',
    until: '2099-12-31',
    ...over,
  });

  /** Each shard judged its own waivers (partial), as batch --shard does, and carries the fleet's list. */
  function judgedShards(expectedFailures: ExpectedFailure[]): FleetReport[] {
    return shards().map((s) => {
      const runs = s.providers.map((p) => ({ slug: p.slug, ...(p.report ? { report: p.report } : {}) }));
      const { reports, outcomes } = evaluateWaivers(expectedFailures, runs, TODAY, { partial: true });
      const providers = s.providers.map((p, i) => {
        const report = reports[i];
        return report ? { ...p, report, verdict: report.verdict } : p;
      });
      return fleetOf(providers, { shard: s.shard, fleet: s.fleet, waivers: outcomes, expectedFailures });
    });
  }

  it('a waiver of a failure in one shard applies: the merged fleet passes, the failure shown as waived', () => {
    const { report } = merge(judgedShards([waiver({ provider: 'south-kitchen' })]));
    expect(report.waivers.map((w) => w.state)).toEqual(['applied']);
    expect(report.providers.find((p) => p.slug === 'south-kitchen')?.verdict).toBe('PASS');
    expect(report).toMatchObject({ verdict: 'PASS', summary: { passed: 3, waivedChecks: 1 } });
    const validate = fleetReportValidator();
    expect(validate(JSON.parse(renderFleetJson(report))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('a waiver for every provider applies when any shard has its failure', () => {
    const { report } = merge(judgedShards([waiver({})]));
    expect(report.waivers.map((w) => w.state)).toEqual(['applied']);
    expect(report.verdict).toBe('PASS');
  });

  it('a waiver for every provider that no shard needed is stale over the whole fleet (no shard reported it)', () => {
    const green = judgedShards([waiver({})]).map((s, i) =>
      i === 1 ? { ...s, providers: [providerResult('south-kitchen', passing)], waivers: [] } : s,
    );
    // Each shard left it out (it waives nothing there, and may apply in another shard): only the carried list has it.
    expect(green.flatMap((s) => s.waivers)).toEqual([]);
    const { report } = merge(green);
    expect(report.waivers.map((w) => w.state)).toEqual(['stale']);
    expect(report.verdict).toBe('FAIL');
  });

  it('a stale waiver (its check passed) fails the merged gate', () => {
    const { report } = merge(
      judgedShards([waiver({ provider: 'south-kitchen' }), waiver({ provider: 'north-kitchen' })]),
    );
    expect(report.waivers.map((w) => [w.provider, w.state])).toEqual([
      ['south-kitchen', 'applied'],
      ['north-kitchen', 'stale'],
    ]);
    expect(report.verdict).toBe('FAIL');
  });

  it('an expired waiver waives nothing: its failure counts again', () => {
    const { report } = merge(judgedShards([waiver({ provider: 'south-kitchen', until: '2025-03-01' })]));
    expect(report.waivers.map((w) => w.state)).toEqual(['expired']);
    expect(report.providers.find((p) => p.slug === 'south-kitchen')?.verdict).toBe('FAIL');
    expect(report).toMatchObject({ verdict: 'FAIL', summary: { waivedChecks: 0 } });
  });

  it('a waiver naming a provider of no shard is unmatched', () => {
    const { report } = merge(
      judgedShards([waiver({ provider: 'south-kitchen' }), waiver({ provider: 'east-kitchen' })]),
    );
    expect(report.waivers.map((w) => [w.provider, w.state])).toEqual([
      ['south-kitchen', 'applied'],
      ['east-kitchen', 'unmatched'],
    ]);
    expect(report.verdict).toBe('FAIL');
  });

  it('without the carried list, the waivers are taken from the shards’ outcomes', () => {
    const reports = judgedShards([waiver({ provider: 'south-kitchen' })]).map((r) => {
      const { expectedFailures: _dropped, ...rest } = r;
      return rest;
    });
    const { report } = merge(reports);
    expect(report.waivers.map((w) => [w.provider, w.state])).toEqual([['south-kitchen', 'applied']]);
    expect(report.verdict).toBe('PASS');
  });
});
