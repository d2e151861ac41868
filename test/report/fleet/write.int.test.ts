import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/model/errors.js';
import type { FleetReport } from '../../../src/model/fleet-report.js';
import { readFleetReport } from '../../../src/report/fleet/read.js';
import { FleetReportWriteError, prepareFleetOutput, writeFleetReports } from '../../../src/report/fleet/write.js';
import { renderHtml } from '../../../src/report/html.js';
import { scratchDir } from '../../support/scratch.js';
import { fleetOf, providerResult, realReports } from './sample.js';

let work = '';
let fleet: FleetReport;

beforeAll(async () => {
  work = await scratchDir('fleet-write');
  const { passing, failing } = await realReports();
  fleet = fleetOf([
    providerResult('north-kitchen', passing),
    providerResult('south-kitchen', failing),
    providerResult('west-kitchen', undefined, 'the credential variable WEST_KEY is not set'),
  ]);
}, 60_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('writeFleetReports', () => {
  it('writes the fleet files and every certified provider’s own reports, and returns their paths', async () => {
    const written = await writeFleetReports(fleet, 'out', { cwd: work, markdownFile: 'summary.md' });
    const provider = (slug: string): string[] =>
      ['json', 'junit.xml', 'md', 'html'].map((ext) => join('out', 'providers', `${slug}.${ext}`));
    expect([...written].sort()).toEqual(
      [
        join('out', 'fleet.json'),
        join('out', 'fleet.junit.xml'),
        join('out', 'fleet.md'),
        join('out', 'index.html'),
        ...provider('north-kitchen'),
        ...provider('south-kitchen'),
        'summary.md',
      ].sort(),
    );
    expect((await readdir(join(work, 'out', 'providers'))).sort()).toHaveLength(8);
    // fleet.json reads back as the fleet it was written from; each provider's HTML is the single-run report.
    expect(await readFleetReport(join('out', 'fleet.json'), work)).toEqual(JSON.parse(JSON.stringify(fleet)));
    const southRun = fleet.providers[1]?.report;
    expect(await readFile(join(work, 'out', 'providers', 'south-kitchen.html'), 'utf8')).toBe(
      renderHtml(southRun as never),
    );
    expect(await readFile(join(work, 'summary.md'), 'utf8')).toContain('provcert fleet food-partners');
    expect(JSON.parse(await readFile(join(work, 'out', 'providers', 'north-kitchen.json'), 'utf8'))).toMatchObject({
      verdict: 'PASS',
      provider: { slug: 'north-kitchen' },
    });
  });

  it('refuses, before any work, an output folder that is a file', async () => {
    await writeFile(join(work, 'taken'), 'a file');
    await expect(prepareFleetOutput('taken', { cwd: work })).rejects.toThrow(UsageError);
    await expect(prepareFleetOutput('taken', { cwd: work })).rejects.toThrow(
      /^cannot write the json report to taken\/fleet\.json: a part of its folder path is a file/,
    );
  });

  it('writes every file it can and names the ones it could not', async () => {
    await writeFile(join(work, 'blocked'), 'a file');
    const error = await writeFleetReports(fleet, 'out2', { cwd: work, markdownFile: 'blocked/summary.md' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FleetReportWriteError);
    const failure = error as FleetReportWriteError;
    expect(failure.failures.map((f) => f.path)).toEqual(['blocked/summary.md']);
    expect(failure.written).toContain(join('out2', 'index.html'));
  });
});
