import { open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { RunReport } from '../../src/model/report.js';
import { countChecks, deriveRunVerdict } from '../../src/model/verdict.js';
import { fleetOf, providerResult } from '../report/fleet/sample.js';
import { ANSI_BELL, failingReport, INJECTED_SCRIPT } from '../report/sample-reports.js';
import { storedReport } from '../report/stored-report.js';
import type { CliResult } from '../support/cli.js';

/**
 * Issue 25, item 4: report files as an attacker would write them, each through `report`, `replay` and
 * `merge-reports` (hostile-reports.int.test.ts in-process, hostile-reports.e2e.test.ts as real processes). A
 * contradiction or an oversized file is refused in one line (exit 2); a consistent but hostile file is rendered
 * inert: no escape sequence reaches the terminal, no markup the page, no variable or file it names is read.
 */

const OPERATOR_SECRET = 'operator-secret-hostile-91c2';
const env = { OPERATOR_SECRET, PROVCERT_ADMIN_TOKEN: 'admin-token-hostile-2b7e', PROVIDER_API_KEY: 'my-key-4410' };
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const HOSTILE_TEXT = `${INJECTED_SCRIPT} ${ANSI_BELL} \u202eevil\u202c ]]> ::error::owned`;

/** Free-text fields only: ids, enums, dates, requirement ids and catalog texts keep their shape (or are refused). */
const STRUCTURAL = new Set([
  'id',
  'status',
  'verdict',
  'severity',
  'requirement',
  'requirements',
  'startedAt',
  'finishedAt',
  'receivedAt',
  'authMethod',
  'profile',
  'fulfillment',
  'capabilities',
  'method',
  'url',
  'baseUrl',
  'state',
  'until',
  'check',
  'version',
  'spec',
  'name',
  'auth',
  'inputs',
  'kind',
  'slug',
  'headers',
]);

function hostileStrings(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return STRUCTURAL.has(key) ? value : `${value} ${HOSTILE_TEXT}`;
  if (Array.isArray(value)) return value.map((v) => hostileStrings(v, key));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        STRUCTURAL.has(k) && typeof v !== 'string' && k !== 'headers' ? v : hostileStrings(v, k),
      ]),
    );
  }
  return value;
}

const base = (): RunReport => storedReport(failingReport());
const edited = (edit: (r: RunReport) => void): RunReport => {
  const r = base();
  edit(r);
  return r;
};
/** Every failing check given `status`, its findings kept, and the summary and verdict made to agree (issue 32, item 8). */
const relabelled = (status: 'pass' | 'skip') => (r: RunReport) => {
  for (const c of r.checks) if (c.status === 'fail' || c.status === 'error') c.status = status;
  r.summary = { ...r.summary, ...countChecks(r.checks) };
  r.verdict = deriveRunVerdict(r);
};
const checkOf = (r: RunReport, id: string) => r.checks.find((c) => c.id === id) as RunReport['checks'][number];

type Content = { report: RunReport } | { text: string } | { sparseBytes: number };
interface Row {
  name: string;
  content: () => Content;
  /** One line on stderr, exit 2; undefined: the file is consistent and rendered inert. */
  refused?: RegExp;
  /** For merge-reports, when it differs (a fleet file has its own limits). */
  fleet?: () => Content;
}

export const ROWS: Row[] = [
  {
    name: 'a forged verdict',
    content: () => ({ report: edited((r) => void (r.verdict = 'PASS')) }),
    refused: /contradicts itself: .*the verdict says "PASS", but its checks, waivers and interruption give FAIL/,
  },
  {
    name: 'a flipped check status',
    content: () => ({ report: edited((r) => void (checkOf(r, 'quote-math').status = 'pass')) }),
    refused: /contradicts itself: .*the summary counts 3 pass, but the checks give 4/,
  },
  {
    name: 'failing checks flipped to pass, findings kept, summary and verdict made to agree',
    content: () => ({ report: edited(relabelled('pass')) }),
    refused: /contradicts itself: .*check [a-z-]+ says "pass", but it records a failing finding \([A-Z0-9-]+\)/,
  },
  {
    name: 'failing checks turned into skips, summary and verdict made to agree',
    content: () => ({ report: edited(relabelled('skip')) }),
    refused:
      /contradicts itself: .*check [a-z-]+ says "skip", but it records a failing finding .* and the run did not list it as not run/,
  },
  {
    name: 'a lying summary',
    content: () => ({ report: edited((r) => void (r.summary.error = 0)) }),
    refused: /contradicts itself: .*the summary counts 0 error, but the checks give 1/,
  },
  {
    name: 'a removed failing check',
    content: () => ({
      report: edited((r) => {
        r.checks = r.checks.filter((c) => c.id !== 'quote-math');
        r.summary.fail = 2;
      }),
    }),
    refused: /contradicts itself: .*check quote-math is missing/,
  },
  {
    name: 'a failure passed off as not run',
    content: () => ({
      report: edited((r) => {
        r.interruptedBy = 'SIGINT';
        r.verdict = 'INTERRUPTED';
        r.notRun = ['quote-math'];
      }),
    }),
    refused: /contradicts itself: .*check quote-math is listed as not run, but its result is "fail"/,
  },
  {
    name: 'an invented waiver',
    content: () => ({
      report: edited((r) => {
        for (const c of r.checks)
          if (c.status === 'fail' || c.status === 'error') c.waiver = { reason: 'ok', until: '2099-01-01' };
      }),
    }),
    refused: /contradicts itself: .*carries a waiver that none of the report's applied expected failures gives/,
  },
  {
    name: 'a requirement quote rewritten',
    content: () => ({
      report: edited((r) => {
        for (const id of Object.keys(r.requirements)) r.requirements[id] = { section: 'x', quote: 'anything goes' };
      }),
    }),
    refused: /contradicts itself: .*the report's text of requirement [A-Z-]+ is not the catalog's/,
  },
  {
    name: 'a huge file',
    content: () => ({ sparseBytes: 64 * 1024 * 1024 + 1 }),
    fleet: () => ({ sparseBytes: 64 * 1024 * 1024 + 1 }),
    refused: /is larger than 64 MB; no provcert/,
  },
  {
    name: 'deeply nested JSON',
    content: () => ({ text: `{"reportVersion":1,"checks":${'['.repeat(50_000)}${']'.repeat(50_000)}}` }),
    refused: /is nested deeper than 64 levels/,
  },
  {
    name: "foreign variables and files named as the run's sources",
    content: () => ({
      report: edited((r) => {
        r.inputs = {
          ...r.inputs,
          baseUrl: 'http://127.0.0.1:9/collect',
          authMethod: 'API_KEY',
          credentialSource: { kind: 'env', name: 'OPERATOR_SECRET' },
          webhookSecretSource: { kind: 'file', path: '/etc/shadow' },
        };
      }),
    }),
  },
  {
    name: 'escape sequences and HTML in every free-text string',
    content: () => ({ report: hostileStrings(base()) as RunReport }),
  },
];

async function write(dir: string, name: string, content: Content): Promise<string> {
  const path = join(dir, name);
  if ('sparseBytes' in content) {
    // Sparse: its size is what is refused, no disk is spent on it.
    const handle = await open(path, 'w');
    await handle.truncate(content.sparseBytes);
    await handle.close();
  } else await writeFile(path, 'text' in content ? content.text : JSON.stringify(content.report));
  return name;
}

const asFleet = (content: Content): Content =>
  'report' in content
    ? { report: fleetOf([providerResult('north-kitchen', content.report)]) as unknown as RunReport }
    : content;

function expectInert(text: string): void {
  expect(text).not.toMatch(RAW_CONTROL);
  expect(text).not.toContain(OPERATOR_SECRET);
}

/** How a test runs provcert: in-process or the built CLI. */
export type Runner = (args: string[], options: { env: Record<string, string>; cwd: string }) => Promise<CliResult>;

/** Row `i` through report, replay and merge-reports, its files in `dir` (run-i, fleet-i, out-i, merged-i). */
export async function expectRowHandled(i: number, dir: string, runCli: Runner): Promise<void> {
  const row = ROWS[i] as Row;
  const file = await write(dir, `run-${i}.json`, row.content());
  const fleet = await write(dir, `fleet-${i}.json`, row.fleet ? row.fleet() : asFleet(row.content()));
  const opts = { env, cwd: dir };
  // Three processes that read the same input and write apart: run side by side.
  const [rendered, replayed, merged] = await Promise.all([
    runCli(['report', file, '--html', `out-${i}.html`, '--markdown', `out-${i}.md`, '--github'], opts),
    runCli(['replay', file], opts),
    runCli(['merge-reports', fleet, '--out', `merged-${i}`], opts),
  ]);

  if (row.refused) {
    for (const [command, r] of [
      ['report', rendered],
      ['replay', replayed],
      ['merge-reports', merged],
    ] as const) {
      expect(r.code, `${command}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trimEnd().split('\n'), command).toHaveLength(1);
      expect(r.stderr, command).toMatch(row.refused);
      expect(r.stdout, command).toBe('');
    }
    return;
  }
  // Consistent: rendered inert; replay contacts and reads nothing the file names.
  expect(rendered.code, rendered.stderr).toBe(0);
  expectInert(rendered.stdout + rendered.stderr);
  const html = await readFile(join(dir, `out-${i}.html`), 'utf8');
  expect(html).not.toContain(INJECTED_SCRIPT);
  expect(html).not.toMatch(RAW_CONTROL);
  const markdown = await readFile(join(dir, `out-${i}.md`), 'utf8');
  // Raw text is shown only inside fenced code blocks (inert there); outside them, markup is escaped.
  const outsideCode = markdown.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '');
  expect(outsideCode).not.toContain('<script>');
  expect(outsideCode).toContain('&lt;script&gt;');
  expect(markdown).not.toMatch(RAW_CONTROL);
  expect(rendered.stdout).not.toMatch(/^::error::owned/m);
  expect(replayed.code).toBe(2);
  expect(replayed.stderr).toMatch(
    /^provcert: replay takes the provider's address and auth from you, not from the report/,
  );
  expectInert(replayed.stdout + replayed.stderr);
  expect(merged.code, merged.stderr).toBe(1);
  expectInert(merged.stdout + merged.stderr);
}
