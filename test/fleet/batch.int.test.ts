import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { FleetReport } from '../../src/model/fleet-report.js';
import { captureIo } from '../support/cli-io.js';
import { readFleetJson, startTestFleet, type TestFleet, writeFleetFile } from './support.js';

/** What a provider's report says of one check. */
const check = (report: FleetReport, slug: string, id: string) =>
  report.providers.find((p) => p.slug === slug)?.report?.checks.find((c) => c.id === id);

async function batch(fleet: TestFleet, args: string[], env: Record<string, string> = fleet.env) {
  const { io, out, err } = captureIo(fleet.dir, env);
  const code = await main(['node', 'provcert', 'batch', ...args, '--no-color'], io);
  return { code, out: out(), err: err() };
}

describe('provcert batch: three reference providers in one process', () => {
  let fleet: TestFleet;
  let result: { code: number; out: string; err: string };
  let report: FleetReport;

  beforeAll(async () => {
    fleet = await startTestFleet([
      { slug: 'north-kitchen' },
      { slug: 'south-kitchen', faults: ['duplicate-creates-new'] },
      { slug: 'east-kitchen', signsWithSecretOf: 'north-kitchen' },
    ]);
    const file = await writeFleetFile(fleet, {
      // A provider whose credential variable is not set: its own failure, not the batch's.
      extraProviders: '  - slug: west-kitchen\n    baseUrl: http://127.0.0.1:9\n    credentialEnv: WEST_KEY\n',
      tail:
        'expectedFailures:\n' +
        '  - { check: idempotency, provider: south-kitchen, reason: duplicate orders fix in progress, until: 2099-12-31 }\n' +
        // lifecycle's repeats see the same duplicate orders.
        '  - { check: lifecycle, provider: south-kitchen, reason: duplicate orders fix in progress, until: 2099-12-31 }\n' +
        '  - { check: health, provider: north-kitchen, reason: was flaky, until: 2099-12-31 }\n',
    });
    result = await batch(fleet, [file, '--out', 'out', '--markdown', 'summary.md', '--events', 'events.ndjson']);
    report = await readFleetJson(fleet.dir, 'out');
  }, 120_000);
  afterAll(() => fleet.close());

  it('fails the fleet (exit 1) and says why per provider', () => {
    expect(result.code, result.out + result.err).toBe(1);
    expect(report.verdict).toBe('FAIL');
    const verdicts = Object.fromEntries(report.providers.map((p) => [p.slug, p.verdict]));
    expect(verdicts).toEqual({
      // north passes its checks, but its waiver is stale: the provider is not green while the waiver stays
      'north-kitchen': 'FAIL',
      'south-kitchen': 'PASS',
      'east-kitchen': 'FAIL',
      'west-kitchen': 'FAIL',
    });
    expect(report.summary).toMatchObject({ providers: 4, passed: 1, failed: 3, notRun: 0, waivedChecks: 2 });
    expect(report.fleet.name).toBe('food-partners');
    expect(report.fleet.slugs).toEqual(['east-kitchen', 'north-kitchen', 'south-kitchen', 'west-kitchen']);
  });

  it("catches the faulty provider's broken rule, and shows it waived with its reason", () => {
    const waived = check(report, 'south-kitchen', 'idempotency') as { status: string; waiver?: unknown } | undefined;
    expect(waived?.status).toBe('fail');
    expect(waived?.waiver).toEqual({ reason: 'duplicate orders fix in progress', until: '2099-12-31' });
    expect(check(report, 'north-kitchen', 'idempotency')?.status).toBe('pass');
    expect(report.waivers.map((w) => [w.provider, w.check, w.state])).toEqual([
      ['south-kitchen', 'idempotency', 'applied'],
      ['south-kitchen', 'lifecycle', 'applied'],
      ['north-kitchen', 'health', 'stale'],
    ]);
  });

  it("routes webhooks by slug and verifies each with that provider's own secret", () => {
    const north = report.providers.find((p) => p.slug === 'north-kitchen')?.report;
    expect(north?.webhooks.url).toMatch(new RegExp(`:${fleet.port}/api/v1/webhooks/north-kitchen$`));
    expect(north?.webhooks.events.length).toBeGreaterThan(0);
    expect(north?.webhooks.events.every((e) => e.verified)).toBe(true);
    expect(check(report, 'north-kitchen', 'webhook')?.status).toBe('pass');
    // east signs with north's secret: the receiver checks east's events with east's secret, so they fail.
    const east = report.providers.find((p) => p.slug === 'east-kitchen')?.report;
    expect(east?.webhooks.events.length).toBeGreaterThan(0);
    expect(east?.webhooks.events.every((e) => !e.verified)).toBe(true);
    expect(check(report, 'east-kitchen', 'webhook')?.status).toBe('fail');
    // Each provider sees only its own events: none of east's rejected deliveries appear in north's timeline.
    expect(north?.webhooks.events.some((e) => !e.verified)).toBe(false);
  });

  it("reports a provider whose credential is not set as that provider's error", () => {
    const west = report.providers.find((p) => p.slug === 'west-kitchen');
    expect(west?.report).toBeUndefined();
    expect(west?.error).toMatch(/missing credential: the environment variable WEST_KEY is not set/);
  });

  it('prints a line per provider as it finishes, then the fleet table', () => {
    expect(result.out).toMatch(/^fleet food-partners: certifying 4 provider\(s\), 4 at once$/m);
    // Live lines are judged with the waivers naming their provider, as the table is (north's is stale).
    expect(result.out).toMatch(/^✗ FAIL {2}north-kitchen {2}\d+ passed, \d+ skipped/m);
    expect(result.out).toMatch(/^✓ PASS {2}south-kitchen {2}2 failing: idempotency, lifecycle/m);
    expect(result.out).toMatch(/^south-kitchen +PASS .* 2 +\d/m);
    expect(result.out).toMatch(/^✗ FAIL {2}west-kitchen {2}missing credential/m);
    expect(result.out).toMatch(/provcert fleet food-partners/);
  });

  it('streams events tagged with their provider, between fleet-start and fleet-end', async () => {
    const lines = (await readFile(join(fleet.dir, 'events.ndjson'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; provider?: string; verdict?: string });
    expect(lines[0]).toMatchObject({ type: 'fleet-start', name: 'food-partners', providers: 4 });
    expect(lines.at(-1)).toMatchObject({ type: 'fleet-end', verdict: 'FAIL' });
    const ends = lines.filter((l) => l.type === 'run-end');
    expect(Object.fromEntries(ends.map((l) => [l.provider, l.verdict]))).toEqual({
      'north-kitchen': 'FAIL',
      'south-kitchen': 'PASS',
      'east-kitchen': 'FAIL',
    });
    const webhooks = lines.filter((l) => l.type === 'webhook');
    expect(new Set(webhooks.map((l) => l.provider))).toEqual(
      new Set(['north-kitchen', 'south-kitchen', 'east-kitchen']),
    );
    const text = JSON.stringify(lines);
    for (const secret of fleet.secrets) expect(text).not.toContain(secret);
  });

  it('writes the fleet reports and one set per provider, with no secret in any of them', async () => {
    for (const f of ['fleet.json', 'fleet.junit.xml', 'fleet.md', 'index.html'])
      expect(existsSync(join(fleet.dir, 'out', f)), f).toBe(true);
    const perProvider = await readdir(join(fleet.dir, 'out', 'providers'));
    for (const slug of ['north-kitchen', 'south-kitchen', 'east-kitchen'])
      expect(perProvider).toEqual(expect.arrayContaining([`${slug}.json`, `${slug}.html`, `${slug}.junit.xml`]));
    expect(existsSync(join(fleet.dir, 'summary.md'))).toBe(true);
    const texts = await Promise.all(
      [
        ...['fleet.json', 'fleet.junit.xml', 'fleet.md', 'index.html'].map((f) => join('out', f)),
        ...perProvider.map((f) => join('out', 'providers', f)),
      ].map((f) => readFile(join(fleet.dir, f), 'utf8')),
    );
    for (const secret of fleet.secrets) for (const text of texts) expect(text).not.toContain(secret);
    for (const secret of fleet.secrets) expect(result.out + result.err).not.toContain(secret);
  });
});

describe('provcert batch: configuration errors stop it before anything runs (exit 2)', () => {
  let fleet: TestFleet;
  beforeAll(async () => {
    fleet = await startTestFleet([{ slug: 'north-kitchen' }]);
  });
  afterAll(() => fleet.close());

  it('names the file, line and key of a structural problem, and sends no request', async () => {
    const file = await writeFleetFile(fleet, { defaults: ', timout: 5000', file: 'bad.yaml' });
    const r = await batch(fleet, [file]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^provcert: bad\.yaml:3: \/defaults unknown key "timout" \(did you mean timeout\?\)$/m);
    expect(fleet.providers.get('north-kitchen')?.requests).toEqual([]);
  });

  it('refuses bad shard flags with one line', async () => {
    const file = await writeFleetFile(fleet);
    expect((await batch(fleet, [file, '--shard', '3/2'])).err).toMatch(/i must be a whole number from 1 to 2/);
    const noIndex = await batch(fleet, [file, '--shard-index-env', 'JOB_COMPLETION_INDEX', '--shard-total', '2']);
    expect(noIndex.code).toBe(2);
    expect(noIndex.err).toMatch(/the environment variable JOB_COMPLETION_INDEX is not set/);
  });
});
