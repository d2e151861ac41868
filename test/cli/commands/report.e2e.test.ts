import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { LOCAL_SECRET, sha256Of, storedReportFolder } from './stored-report-folder.js';

let dir = '';
beforeAll(async () => {
  dir = await storedReportFolder();
});

const report = (args: string[]) => runCli(['report', ...args], { cwd: dir, env: { PROVIDER_API_KEY: LOCAL_SECRET } });

describe('provcert report through the built CLI (the rest in-process: report.int.test.ts)', () => {
  it('every format says it is a stored report read from a file, with its sha256, not a run now (issue 25)', async () => {
    const digest = await sha256Of(join(dir, 'fail.json'));
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
    expect(again.stdout.split('\n')[0]).toContain(
      `from the file n/r.json (sha256 ${await sha256Of(join(dir, 'n/r.json'))})`,
    );
  });
});
