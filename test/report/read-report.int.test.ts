import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRequirements, type RequirementCatalog } from '../../src/contract/requirements.js';
import type { FleetReport } from '../../src/model/fleet-report.js';
import type { RunReport } from '../../src/model/report.js';
import { readStoredFleetReport, readStoredReport } from '../../src/report/read-report.js';
import { fleetOf, providerResult } from './fleet/sample.js';
import { failingReport, passingReport } from './sample-reports.js';
import { storedReport } from './stored-report.js';

let dir = '';
let catalog: RequirementCatalog;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provcert-read-report-'));
  catalog = await loadRequirements();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let n = 0;
async function fileOf(value: unknown): Promise<string> {
  const name = `r${n++}.json`;
  await writeFile(join(dir, name), typeof value === 'string' ? value : JSON.stringify(value));
  return name;
}

const failing = (): RunReport => storedReport(failingReport());
const passing = (): RunReport => storedReport(passingReport());
const edited = (base: RunReport, edit: (r: RunReport) => void): RunReport => {
  const copy = structuredClone(base);
  edit(copy);
  return copy;
};
/** A passing run stopped after its last check ended, as provcert records it: nothing was kept from running. */
const interrupted = (): RunReport =>
  edited(passing(), (r) => {
    r.interruptedBy = 'SIGINT';
    r.verdict = 'INTERRUPTED';
    r.notRun = [];
  });
const check = (r: RunReport, id: string) => {
  const found = r.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no ${id}`);
  return found;
};

describe('readStoredReport: a report whose parts agree is read, with the digest of its bytes', () => {
  const applied = { reason: 'rounding fix ships in sprint 12', until: '2099-12-31' };
  it.each<[string, () => RunReport]>([
    ['failing as written', failing],
    ['passing as written', passing],
    [
      'interrupted: fewer checks, no verdict',
      () =>
        edited(passing(), (r) => {
          r.checks = r.checks.slice(0, 3);
          r.summary = { pass: 3, fail: 0, skip: 0, error: 0 };
          r.interruptedBy = 'SIGTERM';
          r.verdict = 'INTERRUPTED';
        }),
    ],
    [
      'interrupted, with the checks the stop kept from running recorded',
      () =>
        edited(passing(), (r) => {
          r.checks = r.checks.filter((c) => c.id !== 'health');
          Object.assign(check(r, 'quote-math'), { status: 'skip', message: 'cut short' });
          r.summary = { pass: 3, fail: 0, skip: 2, error: 0 };
          r.interruptedBy = 'SIGINT';
          r.verdict = 'INTERRUPTED';
          r.notRun = ['quote-math', 'health'];
        }),
    ],
    [
      'partial: the checks --skip left out are listed',
      () =>
        edited(passing(), (r) => {
          r.leftOut = (r.inputs['skip'] as RunReport['checks'][number]['id'][]).map((id) => ({
            id,
            reason: 'left out by --skip',
          }));
          r.verdict = 'PARTIAL';
        }),
    ],
    [
      'a waived failure counted as waived',
      () =>
        edited(passing(), (r) => {
          const failed = check(r, 'quote-math');
          // A failure records its failing finding (issue 32: a status follows from its findings).
          const finding = {
            severity: 'fail' as const,
            requirement: failed.requirements[0] ?? '',
            message: 'total wrong',
          };
          Object.assign(failed, { status: 'fail', waiver: applied, findings: [...failed.findings, finding] });
          r.summary = { pass: 4, fail: 0, skip: 1, error: 0, waived: 1 };
          r.waivers = [{ check: 'quote-math', ...applied, state: 'applied', message: 'waived on demo-pizza' }];
        }),
    ],
  ])('%s', async (_name, make) => {
    const report = make();
    const text = JSON.stringify(report);
    const stored = await readStoredReport(await fileOf(text), dir, catalog);
    expect(stored.report).toEqual(report);
    expect(stored.digest).toBe(createHash('sha256').update(text).digest('hex'));
  });
});

describe('readStoredReport: the first contradiction is refused in one line (issue 25)', () => {
  it.each<[string, () => unknown, RegExp]>([
    [
      'a forged verdict',
      () => edited(failing(), (r) => void (r.verdict = 'PASS')),
      /the verdict says "PASS", but its checks, waivers and interruption give FAIL \(quote-math: fail\)/,
    ],
    [
      'a flipped check status',
      () => edited(failing(), (r) => void (check(r, 'quote-math').status = 'pass')),
      /the summary counts 3 pass, but the checks give 4/,
    ],
    [
      'a flipped status with a summary to match',
      () =>
        edited(failing(), (r) => {
          for (const c of r.checks) if (c.status !== 'skip') c.status = 'pass';
          r.summary = { pass: 7, fail: 0, skip: 1, error: 0 };
        }),
      /the verdict says "FAIL", but its checks, waivers and interruption give PASS/,
    ],
    [
      'a lying summary',
      () => edited(failing(), (r) => void (r.summary.fail = 0)),
      /the summary counts 0 fail, but the checks give 3/,
    ],
    [
      'a removed failing check',
      () =>
        edited(failing(), (r) => {
          r.checks = r.checks.filter((c) => c.id !== 'errors');
          r.summary.error = 0;
        }),
      /check errors is missing: a run that was not stopped reports every check it did not leave out/,
    ],
    [
      'an invented waiver',
      () => edited(failing(), (r) => void (check(r, 'errors').waiver = { reason: 'trust me', until: '2099-01-01' })),
      /check errors carries a waiver that none of the report's applied expected failures gives/,
    ],
    [
      'a waiver on a check that passed',
      () => edited(failing(), (r) => void (check(r, 'catalog').waiver = { reason: 'x', until: '2099-01-01' })),
      /check catalog carries a waiver, but it did not fail \(status pass\)/,
    ],
    [
      'an interrupted run claiming PASS',
      () => edited(passing(), (r) => void (r.interruptedBy = 'SIGINT')),
      /the verdict says "PASS", but .* give INTERRUPTED/,
    ],
    [
      'checks not run in a run that was not stopped',
      () => edited(passing(), (r) => void (r.notRun = ['cancel'])),
      /check cancel is listed as not run, but the run was not interrupted/,
    ],
    [
      'a check that passed listed as not run',
      () => edited(interrupted(), (r) => void (r.notRun = ['health'])),
      /check health is listed as not run, but its result is "pass"/,
    ],
    [
      'a check listed twice as not run',
      () => edited(interrupted(), (r) => void (r.notRun = ['cancel', 'cancel'])),
      /check cancel is listed twice as not run/,
    ],
    [
      'a check not run that the selection left out',
      () => edited(interrupted(), (r) => void (r.notRun = ['errors'])),
      /check errors is listed as not run, but the run's only\/skip selection left it out/,
    ],
    [
      'a missing check the checks not run do not name',
      () =>
        edited(interrupted(), (r) => {
          r.checks = r.checks.filter((c) => c.id !== 'health');
          r.summary.pass = 4;
        }),
      /check health is missing, but the report does not list it as not run/,
    ],
    [
      'a check listed as left out that the selection kept',
      () => edited(passing(), (r) => void (r.leftOut = [{ id: 'health', reason: 'left out by --skip' }])),
      /check health is listed as left out, but the report has its result/,
    ],
    [
      'a PARTIAL run not naming what it left out',
      () =>
        edited(passing(), (r) => {
          r.leftOut = [{ id: 'errors', reason: 'left out by --skip' }];
          r.verdict = 'PARTIAL';
        }),
      /check [a-z-]+ was left out by the run's only\/skip selection, but the report does not list it/,
    ],
    [
      'a check twice',
      () => edited(passing(), (r) => void r.checks.push(check(r, 'health'))),
      /check health appears twice/,
    ],
    [
      'a requirement the catalog does not have',
      () => edited(failing(), (r) => void (check(r, 'quote-math').requirements = ['QUOTE-ANYTHING-GOES'])),
      /check quote-math cites requirement "QUOTE-ANYTHING-GOES", which the contract's catalog does not have/,
    ],
    [
      "a requirement text that is not the catalog's",
      () =>
        edited(failing(), (r) => {
          const [id] = Object.keys(r.requirements);
          if (id) r.requirements[id] = { section: 'Anything', quote: 'Whatever the provider likes.' };
        }),
      /the report's text of requirement [A-Z-]+ is not the catalog's/,
    ],
  ])('%s', async (_name, make, why) => {
    const path = await fileOf(make());
    const refused = readStoredReport(path, dir, catalog);
    await expect(refused).rejects.toThrow(new RegExp(`^${path} contradicts itself: ${why.source}`));
    const message = await refused.catch((e: Error) => e.message);
    expect(message).not.toContain('\n');
  });
});

describe('readStoredReport: bounded reading', () => {
  it.each([
    ['a missing file', 'no-such.json', /^cannot read report no-such\.json \(no such file\)$/],
    ['a directory', '.', /^cannot read report \. \(it is a directory\)$/],
    [
      'a device (never opened: a pipe would wait for a writer)',
      '/dev/null',
      /^cannot read report \/dev\/null \(not a regular file\)$/,
    ],
  ])('refuses %s in its own words, in one line', async (_name, path, message) => {
    await expect(readStoredReport(path, dir, catalog)).rejects.toThrow(message);
  });

  it.each([
    ['not JSON', '{"reportVersion": 1,', /^r\d+\.json is not JSON; expected the JSON report of a run/],
    ['empty', '  \n', /^r\d+\.json is empty; expected the JSON report of a run/],
  ])('refuses a file that is %s', async (_name, text, message) => {
    await expect(readStoredReport(await fileOf(text), dir, catalog)).rejects.toThrow(message);
  });

  it('refuses a report larger than 64 MB before reading it', async () => {
    const path = join(dir, 'huge.json');
    await writeFile(path, Buffer.alloc(64 * 1024 * 1024 + 1, 0x20));
    await expect(readStoredReport('huge.json', dir, catalog)).rejects.toThrow(
      /^huge\.json is larger than 64 MB; no provcert JSON report .* is that large$/,
    );
  });

  it.each([
    ['arrays', '['.repeat(100_000) + ']'.repeat(100_000)],
    ['objects in a field', `{"reportVersion":1,"inputs":${'{"a":'.repeat(65)}1${'}'.repeat(65)}}`],
  ])('refuses JSON nested deeper than 64 levels (%s) before parsing it', async (_name, text) => {
    await expect(readStoredReport(await fileOf(text), dir, catalog)).rejects.toThrow(
      /is nested deeper than 64 levels; no provcert JSON report .* is$/,
    );
  });

  it('brackets inside strings do not count as nesting', async () => {
    const report = edited(failing(), (r) => void (check(r, 'quote-math').message = `[{"\\"${'['.repeat(200)}`));
    await expect(readStoredReport(await fileOf(report), dir, catalog)).resolves.toMatchObject({ report });
  });
});

describe('readStoredFleetReport: providers, counts and the fleet verdict agree', () => {
  const fleet = (): FleetReport =>
    fleetOf([providerResult('north-kitchen', passing()), providerResult('south-kitchen', failing())]);

  it('reads a consistent fleet report', async () => {
    const report = fleet();
    await expect(readStoredFleetReport(await fileOf(report), dir, catalog)).resolves.toMatchObject({ report });
  });

  it.each<[string, (f: FleetReport) => void, RegExp]>([
    ['a forged fleet verdict', (f) => void (f.verdict = 'PASS'), /the fleet verdict says "PASS", but .* give FAIL/],
    [
      "a provider listed as passing over its run's FAIL",
      (f) => {
        const south = f.providers[1];
        if (south) south.verdict = 'PASS';
      },
      /provider "south-kitchen" is listed as PASS, but its run's verdict is FAIL/,
    ],
    [
      "a provider's run with a forged verdict",
      (f) => {
        const report = f.providers[1]?.report;
        if (report) report.verdict = 'PASS';
      },
      /provider "south-kitchen": the verdict says "PASS"/,
    ],
    [
      'a lying fleet summary',
      (f) => void (f.summary.failed = 0),
      /the fleet summary counts 0 failed, but its providers give 1/,
    ],
    [
      'a PASS without a run report',
      (f) => f.providers.push({ slug: 'ghost-kitchen', baseUrl: 'https://x.invalid', verdict: 'PASS' }),
      /provider "ghost-kitchen" is listed as PASS without a run report/,
    ],
  ])('%s is refused in one line', async (_name, edit, why) => {
    const report = fleet();
    edit(report);
    const path = await fileOf(report);
    await expect(readStoredFleetReport(path, dir, catalog)).rejects.toThrow(
      new RegExp(`^${path} contradicts itself: ${why.source}`),
    );
  });
});
