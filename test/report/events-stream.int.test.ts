import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/model/errors.js';
import type { FleetReport } from '../../src/model/fleet-report.js';
import { type EventRunHooks, openEventStream } from '../../src/report/events.js';
import type { RunDeps } from '../../src/runner/run.js';
import { scratchDir } from '../support/scratch.js';
import { compileEventSchema, parseEventStream } from './events-support.js';
import { CANARY, failingReport, passingReport } from './sample-reports.js';

const line = (fields: Record<string, unknown>): Record<string, unknown> => ({
  time: '2026-03-01T10:00:00.000Z',
  seq: 1,
  ...fields,
});

const captured = (): { stream: PassThrough; text: () => string } => {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
};

describe('spec/events.schema.json', () => {
  const schema = compileEventSchema();
  const runEnd = { type: 'run-end', verdict: 'PASS', summary: { pass: 3, fail: 0, skip: 1, error: 0 }, durationMs: 5 };

  it('accepts a well-formed line of each kind it is given', () => {
    for (const fields of [
      runEnd,
      { ...runEnd, verdict: 'INTERRUPTED', interruptedBy: 'SIGINT', notRun: ['quote-expiry', 'webhook'] },
      { type: 'check-start', check: 'quote-math', title: 'Quote math' },
      { type: 'finding', check: 'quote-math', severity: 'fail', requirement: 'QUOTE-TOTAL-FORMULA', text: 'off by 1' },
      { type: 'webhook', receivedAt: '2026-03-01T10:00:00.000Z', verified: false, diagnosis: 'bad signature' },
    ])
      expect(schema.valid(line(fields)), schema.errors()).toBe(true);
  });

  const runStart = {
    type: 'run-start',
    eventsVersion: 1,
    tool: { name: 'provcert', version: '1.0.0' },
    contract: { version: '1.0.0' },
    baseUrl: 'https://p.example',
  };
  const finding = { type: 'finding', check: 'quote-math', severity: 'fail', requirement: 'QUOTE-MATH', text: 'x' };
  const without = (fields: Record<string, unknown>, key: string): Record<string, unknown> =>
    Object.fromEntries(Object.entries(fields).filter(([k]) => k !== key));

  it('accepts the lines the rejections below are made from', () => {
    for (const fields of [runEnd, runStart, finding]) expect(schema.valid(line(fields)), schema.errors()).toBe(true);
  });

  it.each([
    ['an unknown verdict', line({ ...runEnd, verdict: 'MAYBE' })],
    ['no seq', without(line(runEnd), 'seq')],
    ['an unknown type', line({ ...runEnd, type: 'run-middle' })],
    ['a property the type does not have', line({ ...runEnd, secret: 'x' })],
    ['checks not run that are not a list of check ids', line({ ...runEnd, notRun: ['Not a check!'] })],
    ['a time that is not ISO 8601', line({ ...runEnd, time: 'yesterday' })],
    ['seq 0', line({ ...runEnd, seq: 0 })],
    ['run-start without eventsVersion', line(without(runStart, 'eventsVersion'))],
    ['run-start of another events version', line({ ...runStart, eventsVersion: 2 })],
    ['a finding without its requirement', line(without(finding, 'requirement'))],
    ['a finding of an unknown severity', line({ ...finding, severity: 'info' })],
  ])('rejects a line with %s', (_name, candidate) => {
    expect(schema.valid(candidate)).toBe(false);
  });
});

describe('openEventStream', () => {
  it('writes a fleet: fleet-start, runs tagged with their provider, fleet-end; every line valid, seq increasing', async () => {
    const dir = await scratchDir('events');
    const path = join(dir, 'nested', 'events.ndjson');
    const stream = await openEventStream(path, { stdout: new PassThrough(), cwd: dir });
    stream.fleetStart({ name: 'kitchens', providers: 2, concurrency: 2, shard: { index: 1, total: 2 } });
    const report = failingReport();
    for (const slug of ['north-kitchen', 'south-kitchen']) {
      // What runCertification takes (a fleet passes them per provider).
      const hooks: RunDeps['hooks'] & EventRunHooks = stream.runHooks(slug);
      hooks.onRunBegin({ baseUrl: report.provider.baseUrl, timeoutMs: 10_000 });
      hooks.onRunStart({
        baseUrl: report.provider.baseUrl,
        webhookUrl: 'http://127.0.0.1:1/x',
        profile: 'X',
        checks: 1,
      });
      for (const result of report.checks) {
        hooks.onCheckStart(result.id, result.title);
        hooks.onCheckEnd(result);
      }
      for (const entry of report.webhooks.events) hooks.onWebhook(entry);
      stream.runEnd(report, slug);
    }
    const fleet: FleetReport = {
      reportVersion: 1,
      kind: 'fleet',
      tool: report.tool,
      fleet: { name: 'kitchens', digest: 'ab', slugs: ['north-kitchen', 'south-kitchen', 'west-kitchen'] },
      verdict: 'FAIL',
      startedAt: report.startedAt,
      finishedAt: report.finishedAt,
      durationMs: 10,
      summary: { providers: 3, passed: 0, failed: 2, notRun: 1, waivedChecks: 0 },
      providers: [
        { slug: 'north-kitchen', baseUrl: 'https://n.example', verdict: 'FAIL', report },
        { slug: 'south-kitchen', baseUrl: 'https://s.example', verdict: 'FAIL', report },
        { slug: 'west-kitchen', baseUrl: 'https://w.example', verdict: 'NOT_RUN', error: 'WEST_KEY is not set' },
      ],
      waivers: [
        { check: 'quote-math', reason: 'fix in progress', until: '2020-01-01', state: 'expired', message: 'expired' },
      ],
    };
    stream.fleetEnd(fleet);
    await stream.close();
    stream.fleetEnd(fleet); // after close: nothing more is written

    const lines = parseEventStream(await readFile(path, 'utf8'));
    expect(lines[0]).toMatchObject({ type: 'fleet-start', eventsVersion: 1, name: 'kitchens', providers: 2 });
    expect(lines.at(-1)).toMatchObject({ type: 'fleet-end', verdict: 'FAIL', waivers: [{ state: 'expired' }] });
    expect(lines.at(-1)?.['providers']).toContainEqual({
      slug: 'west-kitchen',
      verdict: 'NOT_RUN',
      error: 'WEST_KEY is not set',
    });
    const inner = lines.slice(1, -1);
    expect(inner.every((l) => l.provider === 'north-kitchen' || l.provider === 'south-kitchen')).toBe(true);
    expect(inner.filter((l) => l.type === 'run-end')).toHaveLength(2);
    const failed = report.checks.filter((c) => c.status === 'fail').map((c) => c.id);
    const findings = inner.filter((l) => l.type === 'finding' && l['severity'] === 'fail');
    expect(new Set(findings.map((l) => l['check']))).toEqual(new Set(failed));
  });

  it('masks the secrets it is given in every line, as a last guard', async () => {
    const out = captured();
    const stream = await openEventStream('-', { stdout: out.stream, cwd: '/', secrets: [CANARY] });
    const report = failingReport();
    const hooks = stream.runHooks();
    hooks.onRunBegin({ baseUrl: `https://p.example/${CANARY}`, timeoutMs: 1 });
    for (const result of report.checks) hooks.onCheckEnd({ ...result, message: `${result.message} ${CANARY}` });
    stream.runEnd(passingReport());
    await stream.close();
    expect(out.text()).not.toContain(CANARY);
    expect(parseEventStream(out.text()).at(-1)).toMatchObject({ type: 'run-end', verdict: 'PASS' });
  });

  it('a reader that went away stops the stream with one note; the run is not disturbed', async () => {
    const broken = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const err = captured();
    const stream = await openEventStream('-', { stdout: broken, stderr: err.stream, cwd: '/' });
    const hooks = stream.runHooks();
    expect(() => hooks.onRunBegin({ baseUrl: 'https://p.example', timeoutMs: 1 })).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(() => stream.runEnd(passingReport())).not.toThrow();
    await stream.close();
    expect(err.text()).toBe('provcert: the event stream to stdout stopped (EPIPE); the run goes on\n');
  });

  it('refuses a path it cannot write with a one-line usage error', async () => {
    const dir = await scratchDir('events');
    await mkdir(join(dir, 'folder'));
    await writeFile(join(dir, 'file'), 'x');
    const io = { stdout: new PassThrough(), cwd: dir };
    await expect(openEventStream('folder', io)).rejects.toThrow(
      new UsageError('cannot write the event stream to folder: it is a directory; name a file inside it'),
    );
    await expect(openEventStream('file/events.ndjson', io)).rejects.toThrow(
      /^cannot write the event stream to file\/events\.ndjson: a part of its folder path is a file, not a folder$/,
    );
  });
});
