import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/report.js';
import { renderFleetConsole } from '../../src/report/fleet/console.js';
import { renderFleetJson } from '../../src/report/fleet/json.js';
import { captureIo, runCommand } from '../config/cli-io.js';
import { DIGEST, fleetOf, providerResult, realReports } from '../report/fleet-sample.js';

let work = '';
let passing: RunReport;
const fleet = { name: 'kitchen-partners', digest: DIGEST, slugs: ['north-kitchen', 'south-kitchen'] };

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'provcert-merge-limits-'));
  ({ passing } = await realReports());
}, 60_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe("merge-reports holds to batch's shard limit", () => {
  it.each([
    ['a total of 2e9 shards', { index: 1, total: 2_000_000_000 }],
    ['a total of 1,001 shards', { index: 1, total: 1001 }],
    ['an index beyond the total', { index: 5, total: 3 }],
  ])('refuses %s in one line (exit 2), before sizing anything by it', async (_name, shard) => {
    const path = join(work, `shard-${shard.index}-${shard.total}.json`);
    await writeFile(path, renderFleetJson(fleetOf([providerResult('north-kitchen', passing)], { shard, fleet })));
    const { io } = captureIo(work, {});
    await expect(runCommand(io, ['merge-reports', path])).rejects.toThrow(
      /^shard \d+\/\d+ is not a shard batch writes: a fleet is split into 1 to 1000 shards, numbered from 1$/,
    );
  });
});

describe('the fleet console table', () => {
  it('renders 150,000 providers (no argument spread into Math.max)', () => {
    // Providers without a run report: the table is what is measured, not copying 150,000 reports.
    const providers = Array.from({ length: 150_000 }, (_, i) => providerResult(`p-${i}`, undefined, 'not configured'));
    const text = renderFleetConsole(fleetOf(providers), { color: false });
    expect(text).toContain('p-149999');
  });
});
