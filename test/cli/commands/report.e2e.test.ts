import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { failingReport, passingReport } from '../../report/sample-reports.js';
import { storedReport } from '../../report/stored-report.js';
import { runCli } from '../../support/cli.js';
import { scratchDir } from '../../support/scratch.js';

/** A value set as the credential variable here: the stored report must never show it. */
const LOCAL_SECRET = 'local-secret-Qw83zLp';

let dir = '';
beforeAll(async () => {
  dir = await scratchDir('report-command');
  const failing = storedReport(failingReport());
  const quoteMath = failing.checks.find((c) => c.id === 'quote-math');
  if (quoteMath) quoteMath.details = [...(quoteMath.details ?? []), `an older provcert kept ${LOCAL_SECRET} here`];
  await writeFile(join(dir, 'fail.json'), JSON.stringify(failing));
  await writeFile(join(dir, 'pass.json'), JSON.stringify(storedReport(passingReport())));
  await mkdir(join(dir, 'a-folder'));
});

const sha256Of = async (file: string): Promise<string> =>
  createHash('sha256')
    .update(await readFile(join(dir, file)))
    .digest('hex');

const report = (args: string[]) => runCli(['report', ...args], { cwd: dir, env: { PROVIDER_API_KEY: LOCAL_SECRET } });

describe('provcert report through the built CLI (the rest in-process: report.int.test.ts)', () => {
  it('every format says it is a stored report read from a file, with its sha256, not a run now (issue 25)', async () => {
    const digest = await sha256Of('fail.json');
    const r = await report([
      'fail.json',
      '--github',
      '--html',
      'n/r.html',
      '--markdown',
      'n/r.md',
      '--junit',
      'n/r.xml',
      '--json',
      'n/r.json',
    ]);
    expect(r.code).toBe(0);
    const said = `stored report read from the file fail.json (sha256 ${digest}), not a certification run now`;
    expect(r.stdout).toContain(`::notice title=provcert stored report::${said}`);
    expect(await readFile(join(dir, 'n/r.md'), 'utf8')).toMatch(
      /^> ⚠️ stored report read from the file fail\.json \(sha256 [0-9a-f]{64}\), not a certification run now/m,
    );
    expect(await readFile(join(dir, 'n/r.md'), 'utf8')).toContain(digest);
    expect(await readFile(join(dir, 'n/r.html'), 'utf8')).toContain(
      `<p class="stored" id="stored-report" role="note">${said}`,
    );
    const junit = await readFile(join(dir, 'n/r.xml'), 'utf8');
    expect(junit).toContain(`<property name="storedReport.sha256" value="${digest}"/>`);
    expect(junit).toContain('<property name="storedReport.file" value="fail.json"/>');
    const json = JSON.parse(await readFile(join(dir, 'n/r.json'), 'utf8')) as { storedReport?: unknown };
    expect(json.storedReport).toEqual({ file: 'fail.json', sha256: digest, note: expect.stringContaining(said) });
    // Read back, the rendered JSON is itself a stored report: it is named again, with its own digest.
    const again = await report(['n/r.json']);
    expect(again.code).toBe(0);
    expect(again.stdout.split('\n')[0]).toContain(`from the file n/r.json (sha256 ${await sha256Of('n/r.json')})`);
  });
});
