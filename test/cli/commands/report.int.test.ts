import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../../src/model/report.js';
import { ANSI_BELL, CANARY, failingReport } from '../../report/sample-reports.js';
import { runMain } from '../../support/cli-io.js';
import { LOCAL_SECRET, sha256Of, storedReportFolder } from './stored-report-folder.js';

let dir = '';
beforeAll(async () => {
  dir = await storedReportFolder();
});

/** provcert report in-process; report.e2e.test.ts runs it through the built CLI. */
const report = async (args: string[]) => {
  const { code, out, err } = await runMain(dir, ['report', ...args], {
    env: { NO_COLOR: '1', CI: '1', PROVIDER_API_KEY: LOCAL_SECRET },
  });
  return { code, stdout: out, stderr: err };
};

describe('provcert report: renders a stored JSON report without re-running', () => {
  it('writes every file format into folders it creates; exit 0 even for a FAIL verdict (rendered)', async () => {
    const r = await report([
      'fail.json',
      '--html',
      'out/html/r.html',
      '--markdown',
      'out/r.md',
      '--junit',
      'out/junit.xml',
      '--json',
      'out/r.json',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      'provcert: wrote the json report to out/r.json',
      'provcert: wrote the junit report to out/junit.xml',
      'provcert: wrote the markdown report to out/r.md',
      'provcert: wrote the html report to out/html/r.html',
    ]);
    const html = await readFile(join(dir, 'out/html/r.html'), 'utf8');
    const markdown = await readFile(join(dir, 'out/r.md'), 'utf8');
    const junit = await readFile(join(dir, 'out/junit.xml'), 'utf8');
    const json = JSON.parse(await readFile(join(dir, 'out/r.json'), 'utf8')) as RunReport;
    expect(html).toContain('Certification FAILED');
    expect(markdown).toContain('`quote-math`');
    expect(junit).toMatch(/<testsuite name="provcert certification" tests="8" failures="3" errors="1" skipped="1"/);
    expect({ verdict: json.verdict, ids: json.checks.map((c) => c.id) }).toEqual({
      verdict: 'FAIL',
      ids: failingReport().checks.map((c) => c.id),
    });
    for (const text of [html, markdown, junit, JSON.stringify(json)]) {
      expect(text).not.toContain(CANARY);
      expect(text).not.toContain(LOCAL_SECRET);
    }
  });

  it('prints the console text by default: each check, the failure details, the verdict; masked and escaped', async () => {
    const r = await report(['fail.json']);
    expect(r.code).toBe(0);
    const header =
      'provcert report of Demo <b>Pizza</b> (demo-pizza) at http://127.0.0.1:4010 (profile TRANSACTIONAL; run 2025-03-01T10:00:00.000Z, ';
    const [notice, ...rest] = r.stdout.split('\n');
    expect(notice).toBe(
      `stored report read from the file fail.json (sha256 ${await sha256Of(join(dir, 'fail.json'))}), not a certification run now: ` +
        'a report file proves nothing by itself; run provcert against the provider to certify it',
    );
    expect(rest.join('\n').startsWith(header)).toBe(true);
    expect(r.stdout).toMatch(/^✗ quote-math {2}total 2350 ≠ subtotal 2100 \+ fees 300 − discount 0$/m);
    expect(r.stdout).toMatch(/^ {4}total: expected 2100 \+ 300 − 0 = 2400, provider 2350$/m);
    expect(r.stdout).toMatch(/^ {4}reproduce:$/m);
    expect(r.stdout).toMatch(/^! errors {2}the check could not run: timed out after 10000 ms$/m);
    expect(r.stdout).toMatch(/^FAIL {2}3 passed, 3 failed, 1 skipped, 1 errors {2}\(6\.2 s\)$/m);
    expect(r.stdout).toContain('an older provcert kept **** here');
    expect(r.stdout).toContain('control characters\\x1b[2J\\x07 are dropped');
    expect(r.stdout).not.toContain(ANSI_BELL);
    expect(r.stdout).not.toContain(LOCAL_SECRET);
  });

  it('--json - is the only thing on stdout; --github prints annotations; --reporter console adds the console text', async () => {
    const json = await report(['pass.json', '--json', '-']);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as RunReport).verdict).toBe('PASS');
    expect(json.stderr).toBe('');

    const github = await report(['fail.json', '--github']);
    expect(github.code).toBe(0);
    expect(github.stdout).toMatch(/^::error title=provcert quote-math::/m);
    expect(github.stdout).not.toMatch(/^✗/m);

    const both = await report(['pass.json', '--reporter', 'console,html']);
    expect(both.code).toBe(0);
    expect(both.stdout).toMatch(/^PASS {2}5 passed, 0 failed, 1 skipped, 0 errors/m);
    expect((await stat(join(dir, 'provcert-report.html'))).isFile()).toBe(true);
  });

  it.each([
    [
      ['fail.json', '--html', 'a-folder'],
      /^provcert: cannot write the html report to a-folder: it is a directory; name a file inside it$/,
    ],
    [
      ['fail.json', '--junit', 'fail.json/junit.xml'],
      /^provcert: cannot write the junit report to fail\.json\/junit\.xml: a part of its folder path/,
    ],
    [['fail.json', '--json', '-', '--markdown', '-'], /^provcert: only one report can go to standard output \(-\)$/],
    [['fail.json', '--reporter', 'pdf'], /^provcert: --reporter: unknown reporter pdf; known: /],
    [['missing.json', '--html', 'x.html'], /^provcert: cannot read report missing\.json \(no such file\)$/],
    [['a-folder'], /^provcert: cannot read report a-folder \(it is a directory\)$/],
  ])('report %j: exit 2, one line, nothing written', async (args, message) => {
    const r = await report(args);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.trimEnd()).toMatch(message);
    expect(r.stdout).toBe('');
    await expect(stat(join(dir, 'x.html'))).rejects.toThrow(/ENOENT/);
  });
});
