import { beforeAll, describe, expect, it } from 'vitest';
import { CHECK_IDS } from '../../../src/model/check-ids.js';
import type { FleetReport } from '../../../src/model/fleet-report.js';
import type { RunReport } from '../../../src/model/report.js';
import { renderFleetConsole } from '../../../src/report/fleet/console.js';
import { renderFleetHtmlIndex } from '../../../src/report/fleet/html.js';
import { renderFleetJson } from '../../../src/report/fleet/json.js';
import { renderFleetJUnit } from '../../../src/report/fleet/junit.js';
import { renderFleetMarkdown } from '../../../src/report/fleet/markdown.js';
import { fleetReportValidator, parseFleetReport } from '../../../src/report/fleet/read.js';
import { providerFileBase } from '../../../src/report/fleet/rows.js';
import { ANSI_BELL, HOSTILE, INJECTED_SCRIPT } from '../sample-reports.js';
import { childrenNamed, parseXml } from '../xml-parser.js';
import { fleetOf, providerResult, realReports, staleWaiver } from './sample.js';

/** The sample providers ran 3 checks; the rest of the profile shows as skipped. */
const LEFT_OUT = CHECK_IDS.length - 3;

let passing: RunReport;
let failing: RunReport;
/** north passes, south fails quote-math, west could not be certified; one waiver is stale. */
let fleet: FleetReport;

beforeAll(async () => {
  ({ passing, failing } = await realReports());
  fleet = fleetOf(
    [
      providerResult('north-kitchen', passing),
      providerResult('south-kitchen', failing),
      providerResult('west-kitchen', undefined, 'the credential variable WEST_KEY is not set'),
    ],
    { waivers: [staleWaiver] },
  );
}, 60_000);

describe('the sample fleet is built from real runs', () => {
  it('has one passing and one failing run of the reference provider', () => {
    expect(passing.verdict).toBe('PASS');
    expect(failing.verdict).toBe('FAIL');
    expect(failing.checks.find((c) => c.id === 'quote-math')?.status).toBe('fail');
    expect(fleet.verdict).toBe('FAIL');
  });
});

describe('fleet JSON (fleet.json) and spec/fleet-report.schema.json', () => {
  it('validates against the schema, each provider run report included, and reads back equal', () => {
    const json = renderFleetJson(fleet);
    const validate = fleetReportValidator();
    expect(validate(JSON.parse(json)), JSON.stringify(validate.errors)).toBe(true);
    expect(parseFleetReport(JSON.parse(json), 'fleet.json')).toEqual(JSON.parse(json));
    expect((JSON.parse(json) as FleetReport).providers[1]?.report?.checks.length).toBe(failing.checks.length);
  });

  it('validates a shard and a merged report too', () => {
    const validate = fleetReportValidator();
    const shard = fleetOf([providerResult('north-kitchen', passing)], { shard: { index: 3, total: 3 } });
    const { state: _s, message: _m, ...entry } = staleWaiver;
    const merged: FleetReport = { ...fleet, mergedShards: [{ index: 1, total: 3 }], expectedFailures: [entry] };
    for (const report of [shard, merged])
      expect(validate(JSON.parse(renderFleetJson(report))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('refuses what is not a fleet report, in one line naming the file', () => {
    expect(() => parseFleetReport(passing, 'report.json')).toThrow(
      'report.json is the report of a single run, not a provcert fleet report',
    );
    expect(() => parseFleetReport([], 'x.json')).toThrow('x.json is not a provcert fleet report');
    expect(() => parseFleetReport({ ...fleet, reportVersion: 2 }, 'f.json')).toThrow(
      'f.json has reportVersion 2; this provcert reads reportVersion 1 fleet reports',
    );
    const broken = JSON.parse(renderFleetJson(fleet)) as { providers: { report: { checks: { status: string }[] } }[] };
    (broken.providers[0]?.report.checks[0] as { status: string }).status = 'great';
    expect(() => parseFleetReport(broken, 'f.json')).toThrow(
      /^f\.json is not a valid provcert fleet report.*: \/providers\/0\/report\/checks\/0\/status must be equal to one of the allowed values$/,
    );
  });
});

describe('fleet JUnit', () => {
  it('writes one testsuite per provider with its checks, a not-run provider as an error, and the waivers', () => {
    const root = parseXml(renderFleetJUnit(fleet));
    const suites = childrenNamed(root, 'testsuite');
    expect(suites.map((s) => s.attributes['name'])).toEqual([
      'provcert north-kitchen',
      'provcert south-kitchen',
      'provcert west-kitchen',
      'provcert expected failures',
    ]);
    const [north, south, west, waivers] = suites;
    expect(childrenNamed(north as never, 'testcase')).toHaveLength(passing.checks.length);
    expect(north?.attributes['failures']).toBe('0');
    expect(south?.attributes['failures']).toBe('1');
    const quoteMath = childrenNamed(south as never, 'testcase').find(
      (t) => t.attributes['classname'] === 'provcert.quote-math',
    );
    expect(childrenNamed(quoteMath as never, 'failure')[0]?.text).toContain('Reproduce:');
    expect(childrenNamed(childrenNamed(west as never, 'testcase')[0] as never, 'error')[0]?.attributes['message']).toBe(
      'the credential variable WEST_KEY is not set',
    );
    expect(
      childrenNamed(childrenNamed(waivers as never, 'testcase')[0] as never, 'failure')[0]?.attributes['message'],
    ).toBe('stale: quote-math passed on north-kitchen: remove this waiver');
    // The totals are the sums of the suites.
    const sum = (attr: string): number => suites.reduce((n, s) => n + Number(s.attributes[attr]), 0);
    expect(root.attributes['tests']).toBe(String(sum('tests')));
    expect(root.attributes['failures']).toBe(String(sum('failures')));
    expect(root.attributes['errors']).toBe(String(sum('errors')));
  });
});

describe('fleet Markdown', () => {
  it('has the summary table, the failing checks per provider and the waivers', () => {
    const md = renderFleetMarkdown(fleet, { providerLinks: 'providers' });
    expect(md).toContain('## ❌ provcert fleet food-partners: certification FAILED');
    expect(md).toContain('**3 providers: 1 passed, 1 failed, 1 not run; 0 waived checks**');
    expect(md).toMatch(
      new RegExp(
        `\\| \\[north-kitchen\\]\\(providers/north-kitchen\\.md\\) \\| ✅ PASS \\| 3 \\| 0 \\| ${LEFT_OUT} \\| 0 \\| 0 \\| `,
      ),
    );
    expect(md).toMatch(/\| west-kitchen \| ⏹️ NOT RUN \| 0 \| 0 \| 0 \| 0 \| 0 \| — \|/);
    expect(md).toContain('#### south-kitchen\n\n- ❌ `quote-math`: total is');
    expect(md).toContain('- the credential variable WEST\\_KEY is not set');
    expect(md).toContain(
      '| `quote-math` | any | north-kitchen | 2099-12-31 | ❌ stale | rounding fix ships in sprint 12 |',
    );
  });
});

describe('fleet HTML index', () => {
  it('links each certified provider to its own HTML report and shows the waivers', () => {
    const html = renderFleetHtmlIndex(fleet);
    expect(html).toContain('<a href="providers/north-kitchen.html">north-kitchen</a>');
    expect(html).toContain('<a href="providers/south-kitchen.html">south-kitchen</a>');
    expect(html).not.toContain('providers/west-kitchen.html');
    expect(html).toContain('data-verdict="FAIL"');
    expect(html).toContain('failing: <code>quote-math</code>');
    expect(html).toMatch(/<br><code>quote-math<\/code>: total is \S/);
    expect(html).toContain('<tr class="bad" data-state="stale">');
    expect(html).toContain('Content-Security-Policy" content="default-src \'none\';');
  });
});

describe('the fleet console table and fleet.md render 150,000 providers (no argument spread of an unbounded array)', () => {
  // Providers without a run report, each failing: the table and the failing section are what is measured.
  let huge: FleetReport;
  beforeAll(() => {
    huge = fleetOf(Array.from({ length: 150_000 }, (_, i) => providerResult(`p-${i}`, undefined, 'not configured')));
  });
  it.each<[string, (report: FleetReport) => string]>([
    ['console', (r) => renderFleetConsole(r, { color: false })],
    // Issue 32, item 10: fleet.md overflowed the stack.
    ['markdown', renderFleetMarkdown],
  ])('%s', (_format, render) => {
    expect(render(huge)).toContain('p-149999');
  });
});

describe('fleet console table', () => {
  it('lists each provider with counts, why the failing ones fail, and the waivers that fail the gate', () => {
    const text = renderFleetConsole(fleet, { color: false });
    expect(text).toContain('provcert fleet food-partners');
    expect(text).toMatch(/^provider\s+verdict\s+pass\s+fail\s+skip\s+error\s+waived\s+duration$/m);
    expect(text).toMatch(new RegExp(`^north-kitchen\\s+PASS\\s+3\\s+0\\s+${LEFT_OUT}\\s+0\\s+0\\s+\\d`, 'm'));
    expect(text).toMatch(new RegExp(`^south-kitchen\\s+FAIL\\s+2\\s+1\\s+${LEFT_OUT}\\s+0\\s+0\\s+\\d`, 'm'));
    expect(text).toMatch(/^west-kitchen\s+NOT RUN\s+0\s+0\s+0\s+0\s+0\s+—$/m);
    expect(text).toContain('✗ south-kitchen  failing: quote-math');
    // Each failing check with its one-line reason (its first failing finding), as fleet.md shows it.
    expect(text).toMatch(/^ {4}quote-math: total is \S/m);
    expect(text).toContain('✗ west-kitchen  the credential variable WEST_KEY is not set');
    expect(text).toContain('1 expected failure fails the gate:');
    expect(text).toContain(
      '  stale     quote-math on north-kitchen (until 2099-12-31): quote-math passed on north-kitchen: remove this waiver',
    );
    expect(text).toContain('FAIL  3 providers: 1 passed, 1 failed, 1 not run; 0 waived checks  (9.5 s)');
    expect(text).not.toContain('\u001b');
  });

  it('colours the verdicts and the failing waivers red only when asked', () => {
    const text = renderFleetConsole(fleet, { color: true });
    expect(text).toContain('\u001b[31m  stale     quote-math on north-kitchen');
    expect(text).toContain('\u001b[32mPASS');
  });

  it('a passing fleet says so', () => {
    const green = fleetOf([providerResult('north-kitchen', passing)]);
    expect(renderFleetConsole(green, { color: false })).toContain(
      'PASS  1 provider: 1 passed, 0 failed, 0 not run; 0 waived checks',
    );
  });
});

describe('provider text cannot break any fleet format', () => {
  const hostileFleet = (): FleetReport =>
    fleetOf([providerResult(`evil${ANSI_BELL}`, undefined, HOSTILE)], {
      fleet: { name: `fleet ${INJECTED_SCRIPT}`, digest: 'b'.repeat(64), slugs: [`evil${ANSI_BELL}`] },
    });

  it('console: control characters are escaped, each provider stays on its line', () => {
    const text = renderFleetConsole(hostileFleet(), { color: false });
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u0007');
    expect(text).toContain('evil\\x1b[2J\\x07');
    expect(text).not.toMatch(/^second line/m);
  });

  it('HTML, Markdown and JUnit escape it', () => {
    const html = renderFleetHtmlIndex(hostileFleet());
    expect(html).not.toContain('<script>window');
    expect(renderFleetMarkdown(hostileFleet())).not.toContain('<script>');
    expect(() => parseXml(renderFleetJUnit(hostileFleet()))).not.toThrow();
  });

  it('a slug never names a file outside providers/', () => {
    expect(providerFileBase('north-kitchen')).toBe('north-kitchen');
    expect(providerFileBase('../../etc/passwd')).toBe('_2e_2e_2f_2e_2e_2fetc_2fpasswd');
    expect(providerFileBase('a_b')).not.toBe(providerFileBase('a.b'));
  });
});

describe('a waived failure in the fleet formats', () => {
  /** south-kitchen's quote-math failure covered by a waiver, as evaluateWaivers marks it. */
  const waivedFleet = (): FleetReport => {
    const waiver = { reason: 'rounding fix ships in sprint 12', until: '2099-12-31' };
    const checks = failing.checks.map((c) => {
      if (c.id !== 'quote-math') return c;
      const marked = { ...c, waiver };
      return marked;
    });
    const south: RunReport = { ...failing, verdict: 'PASS', checks };
    return fleetOf([providerResult('north-kitchen', passing), providerResult('south-kitchen', south)], {
      waivers: [
        {
          check: 'quote-math',
          provider: 'south-kitchen',
          ...waiver,
          state: 'applied',
          message: 'waived quote-math on south-kitchen',
        },
      ],
    });
  };

  it('counts it as waived, not as a failure that fails the gate', () => {
    const fleetReport = waivedFleet();
    expect(fleetReport).toMatchObject({ verdict: 'PASS', summary: { waivedChecks: 1 } });
    const text = renderFleetConsole(fleetReport, { color: false });
    expect(text).toMatch(new RegExp(`^south-kitchen\\s+PASS\\s+2\\s+1\\s+${LEFT_OUT}\\s+0\\s+1\\s`, 'm'));
    expect(text).not.toContain('fails the gate');
    expect(text).not.toContain('failing: quote-math');
    const md = renderFleetMarkdown(fleetReport);
    expect(md).toContain('### Waived failures (do not fail the gate)');
    expect(md).toMatch(
      /- south-kitchen `quote-math`: total is .* \(waived until 2099-12-31: rounding fix ships in sprint 12\)/,
    );
    expect(md).toContain('| ✅ applied |');
    expect(md).not.toContain('### Failing checks');
    expect(renderFleetHtmlIndex(fleetReport)).not.toContain('failing: <code>');
  });
});
