import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/report.js';
import { FAULTS, type FaultName, type RunningProvider } from '../../src/reference-provider/index.js';
import type { ManualClock } from '../../src/util/manual-clock.js';
import { type ClockedReference, startClockedReference } from '../support/cli-clock.js';
import { captureIo, runCommand } from '../support/cli-io.js';
import { startReferenceForRun } from '../support/reference-run.js';
import { scratchDir } from '../support/scratch.js';
import { type EventLine, parseEventStream } from './events-support.js';

const CREDENTIAL = 'canary-credential-Ev81xT';
const WEBHOOK_SECRET = 'canary-webhook-secret-Ev42vW';
const env = { PROVIDER_API_KEY: CREDENTIAL, SERVICE_WEBHOOK_SECRET: WEBHOOK_SECRET };

let provider: RunningProvider | undefined;
let reference: ClockedReference | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
  await reference?.close();
  reference = undefined;
});

/**
 * The same on a manual clock the in-process run shares (test/support/cli-clock.ts), for runs whose waits are not
 * what is tested: `clocked` puts that clock on the run's io.
 */
async function startClockedProvider(
  faults: FaultName[] = [],
): Promise<{ url: string; port: number; clocked: <T extends object>(io: T) => T & { clock: ManualClock } }> {
  reference = await startClockedReference({ credential: CREDENTIAL, webhookSecret: WEBHOOK_SECRET, faults });
  const { clock } = reference;
  return { url: reference.url, port: reference.webhookPort, clocked: (io) => ({ ...io, clock }) };
}

/** A reference provider posting signed status events to the run's receiver on `port`. */
async function startProvider(faults: FaultName[] = []): Promise<{ url: string; port: number }> {
  const started = await startReferenceForRun({ credential: CREDENTIAL, webhookSecret: WEBHOOK_SECRET, faults });
  provider = started.provider;
  return { url: provider.url, port: started.webhookPort };
}

const runArgs = (url: string, port: number, ...more: string[]): string[] => [
  'run',
  '--base-url',
  url,
  '--auth',
  'API_KEY',
  '--local',
  '--webhook-port',
  String(port),
  // The wait ends when the events arrive; a loaded CI machine can hold one for seconds.
  '--webhook-timeout',
  '10000',
  ...more,
];

/** What every stream of one run shows: run-start first, run-plan, a check-end per check, run-end last. */
function expectOneRun(lines: EventLine[], code: number | undefined, report: RunReport): void {
  expect(lines[0]).toMatchObject({ type: 'run-start', eventsVersion: 1, baseUrl: report.provider.baseUrl });
  expect(lines[1]).toMatchObject({ type: 'run-plan', checks: report.checks.length, slug: report.provider.slug });
  const end = lines.at(-1);
  expect(end).toMatchObject({ type: 'run-end', verdict: report.verdict, summary: report.summary });
  expect(code).toBe(end?.['verdict'] === 'PASS' ? 0 : 1);
  const ended = lines.filter((l) => l.type === 'check-end').map((l) => [l['check'], l['status']]);
  expect(ended.sort()).toEqual(report.checks.map((c) => [c.id, c.status]).sort());
  for (const check of lines.filter((l) => l.type === 'check-start').map((l) => l['check'])) {
    const started = lines.findIndex((l) => l.type === 'check-start' && l['check'] === check);
    const finished = lines.findIndex((l) => l.type === 'check-end' && l['check'] === check);
    expect(started).toBeLessThan(finished);
  }
  const webhooks = lines.filter((l) => l.type === 'webhook');
  expect(webhooks.length).toBeGreaterThan(0);
  // The stream subscribes before the first request; a delivery landing after the report was built is extra.
  expect(webhooks.length).toBeGreaterThanOrEqual(report.webhooks.events.length);
  expect(webhooks.some((w) => w['verified'] === true && typeof w['eventId'] === 'string')).toBe(true);
}

describe('provcert run --events (real runs against the reference provider)', () => {
  it('--events FILE: a valid line per event as the run goes, the console unchanged, no secret', async () => {
    const { url, port, clocked } = await startClockedProvider();
    const dir = await scratchDir('events-e2e');
    const { io, out, err } = captureIo(dir, env);
    const path = join(dir, 'out', 'events.ndjson');
    let settled = false;
    const running = runCommand(
      clocked(io),
      runArgs(url, port, '--events', 'out/events.ndjson', '--json', 'report.json'),
    );
    void running.finally(() => (settled = true));
    // A tailing reader sees lines while the run goes (the checks after the first take a while, even on this clock).
    await expect
      .poll(() => readFile(path, 'utf8').catch(() => ''), { timeout: 30_000, interval: 20 })
      .toContain('"type":"check-end"');
    expect(settled).toBe(false);
    const code = await running;
    const text = await readFile(path, 'utf8');
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as RunReport;
    const lines = parseEventStream(text);
    expectOneRun(lines, code, report);
    expect(report.verdict).toBe('PASS');
    expect(lines.filter((l) => l.type === 'finding' && l['severity'] === 'fail')).toEqual([]);
    expect(lines.every((l) => l.provider === undefined)).toBe(true);
    expect(out()).toContain('PASS');
    expect(err()).toBe('');
    for (const shown of [text, out()]) {
      expect(shown).not.toContain(CREDENTIAL);
      expect(shown).not.toContain(WEBHOOK_SECRET);
    }
  });

  it('--events -: stdout carries only NDJSON; a fault yields findings citing its requirement; exit 1', async () => {
    const fault: FaultName = 'quote-total-wrong';
    const { url, port, clocked } = await startClockedProvider([fault]);
    const dir = await scratchDir('events-e2e');
    const { io, out, err } = captureIo(dir, env);
    const code = await runCommand(clocked(io), runArgs(url, port, '--events', '-', '--json', 'report.json'));
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as RunReport;
    const lines = parseEventStream(out());
    expectOneRun(lines, code, report);
    expect(code).toBe(1);
    const findings = lines.filter((l) => l.type === 'finding' && l['severity'] === 'fail');
    expect(findings).toContainEqual(
      expect.objectContaining({ check: FAULTS[fault].check, requirement: FAULTS[fault].requirement }),
    );
    expect(findings.every((f) => /^[A-Z][A-Z0-9-]+$/.test(String(f['requirement'])))).toBe(true);
    // The live console moved to stderr.
    expect(err()).toContain(FAULTS[fault].check);
    for (const shown of [out(), err()]) {
      expect(shown).not.toContain(CREDENTIAL);
      expect(shown).not.toContain(WEBHOOK_SECRET);
    }
  });

  it('an expected failure: check-end carries its waiver, run-end the waived verdict and the outcome', async () => {
    const fault: FaultName = 'quote-total-wrong';
    const { url, port, clocked } = await startClockedProvider([fault]);
    const dir = await scratchDir('events-e2e');
    const reason = 'rounding fix ships next sprint';
    await writeFile(
      join(dir, 'provcert.config.yaml'),
      `expectedFailures:\n  - check: ${FAULTS[fault].check}\n    reason: ${reason}\n    until: 2999-12-31\n`,
    );
    const { io } = captureIo(dir, env);
    // Without exploration, so the wrong total fails quote-math alone (quote-explore would catch it too).
    const code = await runCommand(clocked(io), runArgs(url, port, '--events', 'events.ndjson', '--explore', '0'));
    const lines = parseEventStream(await readFile(join(dir, 'events.ndjson'), 'utf8'));
    expect(lines).toContainEqual(
      expect.objectContaining({
        type: 'check-end',
        check: FAULTS[fault].check,
        status: 'fail',
        waiver: { reason, until: '2999-12-31' },
      }),
    );
    expect(lines.at(-1)).toMatchObject({ type: 'run-end', verdict: 'PASS', waivers: [{ state: 'applied', reason }] });
    expect(code).toBe(0);
  });

  // On the wall clock: the stop lands while a real run is under way.
  it('Ctrl-C: the stream still ends with run-end, naming the signal', async () => {
    const { url, port } = await startProvider();
    const dir = await scratchDir('events-e2e');
    const { io } = captureIo(dir, env);
    const stop = new AbortController();
    const running = runCommand(io, runArgs(url, port, '--events', 'events.ndjson'), stop.signal);
    await expect
      .poll(() => readFile(join(dir, 'events.ndjson'), 'utf8').catch(() => ''), { timeout: 30_000, interval: 20 })
      .toContain('"type":"check-end"');
    stop.abort('SIGINT');
    await running;
    const lines = parseEventStream(await readFile(join(dir, 'events.ndjson'), 'utf8'));
    expect(lines.at(-1)).toMatchObject({
      type: 'run-end',
      verdict: 'INTERRUPTED',
      interruptedBy: 'SIGINT',
    });
    // What the stop kept from running, as the report records it: each ended as a skip in this stream.
    const notRun = lines.at(-1)?.['notRun'] as string[];
    expect(notRun.length).toBeGreaterThan(0);
    const skipped = lines.filter((l) => l.type === 'check-end' && l['status'] === 'skip').map((l) => l['check']);
    for (const id of notRun) expect(skipped).toContain(id);
  });

  it('demo --events -: stdout carries only NDJSON, the demo banner goes to stderr', async () => {
    const dir = await scratchDir('events-e2e');
    const { io, out, err } = captureIo(dir, {});
    const code = await runCommand(io, ['demo', '--events', '-']);
    const lines = parseEventStream(out());
    expect(lines[0]?.type).toBe('run-start');
    expect(lines.at(-1)).toMatchObject({ type: 'run-end', verdict: 'PASS' });
    expect(code).toBe(0);
    expect(lines.some((l) => l.type === 'webhook')).toBe(true);
    expect(err()).toContain('reference provider http://127.0.0.1:');
  });
});

describe('provcert run --events: unusable targets are usage errors before any request', () => {
  it.each([
    ['a directory', ['--events', 'folder'], /cannot write the event stream to folder: it is a directory/],
    ['stdout twice', ['--events', '-', '--json', '-'], /--events - and the json report cannot both go to standard/],
    ['a report file', ['--events', 'r.json', '--json', 'r.json'], /the json report and the event stream would both/],
  ])('%s', async (_name, flags, message) => {
    const { url, port } = await startProvider();
    const dir = await scratchDir('events-e2e');
    await mkdir(join(dir, 'folder'));
    const { io } = captureIo(dir, env);
    await expect(runCommand(io, runArgs(url, port, ...flags))).rejects.toThrow(message);
    expect(provider?.requests).toEqual([]);
  });
});
