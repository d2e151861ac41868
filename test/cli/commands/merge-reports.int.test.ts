import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetReport } from '../../../src/model/fleet-report.js';
import type { RunReport } from '../../../src/model/report.js';
import { renderFleetJson } from '../../../src/report/fleet/json.js';
import { DIGEST, fleetOf, providerResult, realReports } from '../../report/fleet/sample.js';
import { captureIo, runCommand } from '../../support/cli-io.js';
import { scratchDir } from '../../support/scratch.js';

let work = '';
let passing: RunReport;
let failing: RunReport;

const SLUGS = ['north-kitchen', 'south-kitchen', 'west-kitchen'];
const fleet = { name: 'kitchen-partners', digest: DIGEST, slugs: SLUGS };

beforeAll(async () => {
  work = await scratchDir('merge-cli');
  ({ passing, failing } = await realReports());
}, 60_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** Writes the three shards' fleet.json (south-kitchen's run given) and returns their paths. */
async function writeShards(dir: string, south: RunReport): Promise<string[]> {
  const shards: FleetReport[] = [
    fleetOf([providerResult('west-kitchen', passing)], { shard: { index: 1, total: 3 }, fleet }),
    fleetOf([providerResult('south-kitchen', south)], { shard: { index: 2, total: 3 }, fleet }),
    fleetOf([providerResult('north-kitchen', passing)], { shard: { index: 3, total: 3 }, fleet }),
  ];
  const paths = shards.map((_, i) => join(dir, `shard-${i + 1}`, 'fleet.json'));
  for (const [i, report] of shards.entries()) {
    await mkdir(join(dir, `shard-${i + 1}`), { recursive: true });
    await writeFile(paths[i] as string, renderFleetJson(report));
  }
  return paths;
}

describe('provcert merge-reports', () => {
  it('prints the fleet table, writes every format and exits 1 when a provider failed', async () => {
    const dir = await mkdtemp(join(work, 'fail-'));
    const files = await writeShards(dir, failing);
    const { io, out, err } = captureIo(dir, {});
    const code = await runCommand(io, ['merge-reports', ...files, '--out', 'merged', '--markdown', 'summary.md']);
    expect(code, err()).toBe(1);
    expect(out()).toMatch(/^south-kitchen\s+FAIL\s+2\s+1\s/m);
    expect(out()).toContain('merged shards 1/3, 2/3, 3/3');
    expect(out()).toContain('FAIL  3 providers: 2 passed, 1 failed, 0 not run');
    expect(err()).toContain('provcert: wrote the merged fleet reports to merged');
    const merged = JSON.parse(await readFile(join(dir, 'merged', 'fleet.json'), 'utf8')) as FleetReport;
    expect(merged).toMatchObject({ verdict: 'FAIL', mergedShards: [{ index: 1 }, { index: 2 }, { index: 3 }] });
    for (const file of ['fleet.junit.xml', 'fleet.md', 'index.html', 'providers/south-kitchen.html'])
      expect((await readFile(join(dir, 'merged', file), 'utf8')).length).toBeGreaterThan(0);
    expect(await readFile(join(dir, 'summary.md'), 'utf8')).toContain('certification FAILED');
  });

  it('exits 0 when the merged fleet passes, writing to provcert-fleet by default', async () => {
    const dir = await mkdtemp(join(work, 'pass-'));
    const files = await writeShards(dir, passing);
    const { io, out } = captureIo(dir, {});
    expect(await runCommand(io, ['merge-reports', ...files, '--no-color'])).toBe(0);
    expect(out()).toContain('PASS  3 providers: 3 passed, 0 failed, 0 not run');
    expect(out()).not.toContain('\u001b');
    const merged = JSON.parse(await readFile(join(dir, 'provcert-fleet', 'fleet.json'), 'utf8')) as FleetReport;
    expect(merged.verdict).toBe('PASS');
  });

  it('warns on stderr about a missing shard and fails the gate', async () => {
    const dir = await mkdtemp(join(work, 'missing-'));
    const [one, , three] = await writeShards(dir, passing);
    const { io, out, err } = captureIo(dir, {});
    expect(await runCommand(io, ['merge-reports', one as string, three as string])).toBe(1);
    expect(err()).toContain('provcert: warning: shard 2/3 is missing: its provider south-kitchen is reported NOT_RUN');
    expect(out()).toMatch(/^south-kitchen\s+NOT RUN/m);
  });

  it.each([
    ['a missing file', async (_dir: string) => 'nope.json', /^cannot read fleet report nope\.json \(no such file\)$/],
    [
      'a file that is not JSON',
      async (dir: string) => {
        await writeFile(join(dir, 'bad.json'), '{ not json');
        return 'bad.json';
      },
      /^bad\.json is not JSON; expected the provcert fleet report/,
    ],
    [
      'a single run report',
      async (dir: string) => {
        await writeFile(join(dir, 'run.json'), JSON.stringify(passing));
        return 'run.json';
      },
      /^run\.json is the report of a single run, not a provcert fleet report/,
    ],
  ])('refuses %s (exit 2, one line)', async (_name, make, message) => {
    const dir = await mkdtemp(join(work, 'bad-'));
    const files = await writeShards(dir, passing);
    const bad = await make(dir);
    const { io } = captureIo(dir, {});
    await expect(runCommand(io, ['merge-reports', files[0] as string, bad])).rejects.toThrow(message);
  });

  it('refuses shards of different provcert versions (exit 2)', async () => {
    const dir = await mkdtemp(join(work, 'versions-'));
    const files = await writeShards(dir, passing);
    const other = JSON.parse(await readFile(files[1] as string, 'utf8')) as FleetReport;
    await writeFile(files[1] as string, JSON.stringify({ ...other, tool: { name: 'provcert', version: '0.2.0' } }));
    const { io } = captureIo(dir, {});
    await expect(runCommand(io, ['merge-reports', ...files])).rejects.toThrow(
      /^cannot merge reports of different provcert versions: 0\.1\.0 \(shard 1\/3\) and 0\.2\.0 \(shard 2\/3\)/,
    );
  });
});

describe("merge-reports holds to batch's shard limit", () => {
  it.each([
    ['a total of 2e9 shards', { index: 1, total: 2_000_000_000 }],
    ['a total of 1,001 shards', { index: 1, total: 1001 }],
    ['an index beyond the total', { index: 5, total: 3 }],
  ])('refuses %s in one line (exit 2), before sizing anything by it', async (_name, shard) => {
    const path = join(work, `shard-${shard.index}-${shard.total}.json`);
    const two = { ...fleet, slugs: ['north-kitchen', 'south-kitchen'] };
    await writeFile(path, renderFleetJson(fleetOf([providerResult('north-kitchen', passing)], { shard, fleet: two })));
    const { io } = captureIo(work, {});
    await expect(runCommand(io, ['merge-reports', path])).rejects.toThrow(
      /^shard \d+\/\d+ is not a shard batch writes: a fleet is split into 1 to 1000 shards, numbered from 1$/,
    );
  });
});
