import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { shardOf } from '../../src/fleet/shard.js';
import { captureIo } from '../support/cli-io.js';
import { readFleetJson, startTestFleet, type TestFleet, writeFleetFile } from './support.js';

const SLUGS = ['north-kitchen', 'south-kitchen', 'east-kitchen'];

describe('provcert batch --shard: a stable subset per shard, every provider in one', () => {
  let fleet: TestFleet;
  let file: string;
  beforeAll(async () => {
    fleet = await startTestFleet(SLUGS.map((slug) => ({ slug })));
    // Read-only checks keep each certification short; sharding does not depend on what is checked.
    file = await writeFleetFile(fleet, { defaults: ', only: [metadata, health]' });
  }, 60_000);
  afterAll(() => fleet.close());

  async function batch(args: string[], env: Record<string, string> = fleet.env) {
    const { io, out, err } = captureIo(fleet.dir, env);
    const code = await main(['node', 'provcert', 'batch', file, '--no-color', ...args], io);
    return { code, out: out(), err: err() };
  }

  it('splits the fleet over 2 shards: together they certify each provider exactly once', async () => {
    const one = await batch(['--shard', '1/2', '--out', 'shard-1']);
    const two = await batch(['--shard', '2/2', '--out', 'shard-2']);
    expect(one.code, one.out + one.err).toBe(0);
    expect(two.code, two.out + two.err).toBe(0);
    const [a, b] = await Promise.all([readFleetJson(fleet.dir, 'shard-1'), readFleetJson(fleet.dir, 'shard-2')]);
    expect(a.shard).toEqual({ index: 1, total: 2 });
    expect(b.shard).toEqual({ index: 2, total: 2 });
    const certified = [...a.providers, ...b.providers].map((p) => p.slug).sort();
    expect(certified).toEqual([...SLUGS].sort());
    for (const p of a.providers) expect(shardOf(p.slug, 2)).toBe(1);
    // Both shards name the same fleet, so merge-reports can put them together.
    expect(a.fleet).toEqual(b.fleet);
    expect(a.fleet.slugs).toEqual([...SLUGS].sort());
  }, 60_000);

  it('reads a 0-based index from the environment like a Kubernetes Indexed Job', async () => {
    const env = { ...fleet.env, JOB_COMPLETION_INDEX: '1' };
    const r = await batch(['--shard-index-env', 'JOB_COMPLETION_INDEX', '--shard-total', '2', '--out', 'k8s'], env);
    expect(r.code, r.out + r.err).toBe(0);
    const report = await readFleetJson(fleet.dir, 'k8s');
    expect(report.shard).toEqual({ index: 2, total: 2 });
    expect(report.providers.map((p) => p.slug).sort()).toEqual(SLUGS.filter((s) => shardOf(s, 2) === 2).sort());
  }, 60_000);

  it('with --events - keeps stdout to the event stream and moves the console to stderr', async () => {
    const r = await batch(['--events', '-', '--out', 'events']);
    expect(r.code, r.err).toBe(0);
    const lines = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; provider?: string });
    expect(lines[0]?.type).toBe('fleet-start');
    expect(lines.at(-1)?.type).toBe('fleet-end');
    const tagged = new Set(lines.filter((l) => l.type === 'run-end').map((l) => l.provider));
    expect(tagged).toEqual(new Set(SLUGS));
    expect(r.err).toMatch(/^fleet food-partners: certifying 3 provider\(s\), 3 at once$/m);
  }, 60_000);

  it('refuses an empty shard (exit 2, one line) while the fleet has providers', async () => {
    const total = 8;
    const empty = Array.from({ length: total }, (_, i) => i + 1).find((i) =>
      SLUGS.every((s) => shardOf(s, total) !== i),
    );
    expect(empty).toBeDefined();
    const before = [...fleet.providers.values()].map((p) => p.requests.length);
    const r = await batch(['--shard', `${empty}/${total}`, '--out', 'empty']);
    expect(r.code, r.out + r.err).toBe(2);
    expect(r.err.trim().split('\n')[0]).toMatch(
      new RegExp(`shard ${empty}/${total} of fleet\\.yaml holds none of its 3 provider\\(s\\); use fewer shards`),
    );
    expect([...fleet.providers.values()].map((p) => p.requests.length)).toEqual(before);
  }, 60_000);
});
