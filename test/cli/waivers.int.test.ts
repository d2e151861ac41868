import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/report.js';
import { type FaultName, REFERENCE_SLUG, type RunningProvider } from '../../src/reference-provider/index.js';
import { utcDate } from '../../src/runner/waivers.js';
import { captureIo, runCommand } from '../support/cli-io.js';
import { startReferenceForRun } from '../support/reference-run.js';
import { scratchDir } from '../support/scratch.js';

/**
 * expectedFailures end to end: a config file with waivers, `provcert run` through the real program against the
 * reference provider (quote-total-wrong breaks quote-math on QUOTE-TOTAL-FORMULA), every report format read back.
 */

const CREDENTIAL = 'canary-credential-Wv81xT';
const WEBHOOK_SECRET = 'canary-webhook-secret-Wv42vW';
const env = { PROVIDER_API_KEY: CREDENTIAL, SERVICE_WEBHOOK_SECRET: WEBHOOK_SECRET, NO_COLOR: '1' };

let provider: RunningProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const FAR = '2099-12-31';
const YESTERDAY = utcDate(new Date(Date.now() - 86_400_000));

interface Run {
  code: number | undefined;
  out: string;
  err: string;
  dir: string;
  report: RunReport;
  read(name: string): Promise<string>;
}

/** `provcert run` (health and quote-math only) with a config file holding these waivers. */
async function run(faults: FaultName[], waivers: string, extra: string[] = []): Promise<Run> {
  const dir = await scratchDir('waivers-e2e');
  const started = await startReferenceForRun({ credential: CREDENTIAL, webhookSecret: WEBHOOK_SECRET, faults });
  provider = started.provider;
  const port = started.webhookPort;
  const config = [
    `baseUrl: ${provider.url}`,
    'auth: API_KEY',
    'local: true',
    `webhookPort: ${port}`,
    'only: [health, quote-math]',
    'json: report.json',
    'junit: report.xml',
    'markdown: report.md',
    'html: report.html',
    ...extra,
    'expectedFailures:',
    waivers,
  ].join('\n');
  await writeFile(join(dir, 'provcert.config.yaml'), `${config}\n`);
  const { io, out, err } = captureIo(dir, env);
  const code = await runCommand(io, ['run']);
  const read = (name: string): Promise<string> => readFile(join(dir, name), 'utf8');
  // A run refused before it starts writes no report.
  const report = JSON.parse(await read('report.json').catch(() => 'null')) as RunReport;
  return { code, out: out(), err: err(), dir, report, read };
}

const entry = (fields: Record<string, string>): string =>
  Object.entries(fields)
    .map(([key, value], i) => `${i === 0 ? '  - ' : '    '}${key}: ${JSON.stringify(value)}`)
    .join('\n');

describe('expectedFailures in provcert run (real CLI, reference provider)', () => {
  it('a waived failure: exit 0, and every format says waived with the reason', async () => {
    const waiver = entry({
      check: 'quote-math',
      requirement: 'QUOTE-TOTAL-FORMULA',
      reason: 'total rounding fix ships in 2.4 (JIRA-12)',
      until: FAR,
    });
    const r = await run(['quote-total-wrong'], waiver);
    // --only quote-math runs what it needs, and says so: nothing else on stderr.
    expect(r.err).toBe('--only also runs catalog: quote-math needs catalog for its test data\n');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /WAIVED quote-math {2}.*\n {4}waived until 2099-12-31: total rounding fix ships in 2\.4 \(JIRA-12\)/,
    );
    // A waived failure counts as waived, not failed. Only three checks ran (only: …, and catalog, which quote-math
    // needs), so the verdict is PARTIAL: the console's verdict wording is the reporters' (they print report.verdict).
    expect(r.out).toContain('2 passed, 0 failed, 1 skipped, 0 errors, 1 waived');
    expect(r.report.verdict).toBe('PARTIAL');
    expect(r.report.summary).toMatchObject({ pass: 2, fail: 0, waived: 1 });
    expect(r.report.checks.find((c) => c.id === 'quote-math')).toMatchObject({
      status: 'fail',
      waiver: { reason: 'total rounding fix ships in 2.4 (JIRA-12)', until: FAR },
    });
    expect(r.report.waivers).toMatchObject([{ check: 'quote-math', state: 'applied' }]);
    expect(await r.read('report.xml')).toContain(
      '<skipped message="waived until 2099-12-31: total rounding fix ships in 2.4 (JIRA-12)"/>',
    );
    expect(await r.read('report.md')).toContain('🟡 waived');
    expect(await r.read('report.html')).toContain('<span class="badge waived">waived</span>');
    for (const text of [r.out, await r.read('report.json'), await r.read('report.html')]) {
      expect(text).not.toContain(CREDENTIAL);
    }
  });

  // Issue 32: a waiver dated far out warned only in the JSON, and strict mode let it through.
  const FAR_OUT = '9999-12-31';
  const far = entry({ check: 'quote-math', reason: 'later', until: FAR_OUT });
  it('a waiver until 9999-12-31: applied, and the console warns as the JSON does', async () => {
    const r = await run(['quote-total-wrong'], far);
    const warning = `warning: ${FAR_OUT} is more than 365 days away; set the date the fix is due`;
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(warning);
    expect(r.report.waivers?.[0]?.message).toContain(warning);
  });

  it('a waiver until 9999-12-31 with strict: refused in one line before any request', async () => {
    await expect(run(['quote-total-wrong'], far, ['strict: true'])).rejects.toThrow(
      /^expectedFailures: the waiver of quote-math runs until 9999-12-31, more than 365 days away; strict mode refuses it/,
    );
    expect(provider?.requests).toEqual([]);
  });

  it('a stale waiver (its check passes): exit 1, saying to remove it', async () => {
    const r = await run([], entry({ check: 'quote-math', reason: 'was broken', until: FAR }));
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      `STALE     quote-math (until ${FAR}): quote-math passed on ${REFERENCE_SLUG}: remove this waiver`,
    );
    expect(r.out).toContain('Certification failed: 1 expected-failure entry fails the gate');
    expect(r.report.verdict).toBe('FAIL');
    expect(r.report.waivers).toMatchObject([{ state: 'stale' }]);
    expect(await r.read('report.xml')).toMatch(
      /<testcase classname="provcert\.waiver" name="waiver quote-math until 2099-12-31"/,
    );
  });

  it('an expired waiver: exit 1, and the failure counts again', async () => {
    const r = await run(['quote-total-wrong'], entry({ check: 'quote-math', reason: 'old', until: YESTERDAY }));
    expect(r.code).toBe(1);
    expect(r.out).toContain(`EXPIRED   quote-math (until ${YESTERDAY}): expired on ${YESTERDAY}`);
    expect(r.out).toContain('quote-math failed on');
    expect(r.out).toMatch(/✗ quote-math/);
    expect(r.report.checks.find((c) => c.id === 'quote-math')?.waiver).toBeUndefined();
    expect(r.report.waivers).toMatchObject([{ state: 'expired' }]);
    expect(await r.read('report.md')).toContain('**expired** `quote-math`');
  });

  it('an unmatched waiver (the failure cites another requirement): exit 1, saying what failed instead', async () => {
    const waiver = entry({ check: 'quote-math', requirement: 'QUOTE-FEES-SUM', reason: 'fees', until: FAR });
    const r = await run(['quote-total-wrong'], waiver);
    expect(r.code).toBe(1);
    expect(r.out).toContain('UNMATCHED quote-math [QUOTE-FEES-SUM]');
    expect(r.out).toContain('but not on QUOTE-FEES-SUM (it cited QUOTE-TOTAL-FORMULA)');
    expect(r.report.waivers).toMatchObject([{ state: 'unmatched' }]);
    expect(await r.read('report.html')).toContain('<h2>Expected failures</h2>');
  });

  it('a bad entry is exit 2 before any request, naming the entry', async () => {
    await expect(run([], entry({ check: 'quote-maths', reason: 'r', until: '2026-13-01' }))).rejects.toThrow(
      'provcert.config.yaml: expectedFailures[0].check: quote-maths is not a check id (did you mean quote-math?)',
    );
  });
});
