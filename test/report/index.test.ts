import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/model/errors.js';
import { prepareReportTargets, type ReportIo, type ReportTarget, writeReports } from '../../src/report/index.js';
import {
  FILE_REPORTER_NAMES,
  isReporterName,
  RENDERING_REPORTER_NAMES,
  REPORTER_NAMES,
  REPORTERS,
} from '../../src/report/reporters.js';
import { scratchDir } from '../support/scratch.js';
import { CANARY, failingReport, passingReport } from './sample-reports.js';

function memoryIo(writeFileImpl: ReportIo['writeFile']): ReportIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    writeFile: writeFileImpl,
    stdout: { write: (text: string) => (io.out += text) },
    stderr: { write: (text: string) => (io.err += text) },
  };
  return io;
}

describe('REPORTERS', () => {
  it('lists every reporter by name: the file reporters with their default files, the renderers', () => {
    expect(REPORTER_NAMES).toEqual(['console', 'json', 'junit', 'markdown', 'html', 'github']);
    expect(FILE_REPORTER_NAMES).toEqual(['json', 'junit', 'markdown', 'html']);
    expect(FILE_REPORTER_NAMES.map((name) => REPORTERS[name].defaultFile)).toEqual([
      'provcert-report.json',
      'provcert-junit.xml',
      'provcert-report.md',
      'provcert-report.html',
    ]);
    expect(RENDERING_REPORTER_NAMES).toEqual(['json', 'junit', 'markdown', 'html', 'github']);
    expect(isReporterName('console')).toBe(true);
    expect(isReporterName('junit')).toBe(true);
    expect(isReporterName('pdf')).toBe(false);
    expect(isReporterName('toString')).toBe(false);
  });

  it.each(RENDERING_REPORTER_NAMES)('%s: the canary secret appears in no output', (name) => {
    for (const report of [failingReport(), passingReport()]) {
      const out = REPORTERS[name].render(report);
      expect(out).not.toContain(CANARY);
    }
  });

  it.each(RENDERING_REPORTER_NAMES)('%s: only reads the report', (name) => {
    const report = failingReport();
    const before = JSON.stringify(report);
    REPORTERS[name].render(report);
    expect(JSON.stringify(report)).toBe(before);
  });
});

describe('writeReports', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await scratchDir('report');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes files and stdout; one failing target is reported in one line and does not stop the others', async () => {
    const report = failingReport();
    const io = memoryIo((path, content) => writeFile(path, content, 'utf8'));
    const failures = await writeReports(
      report,
      [
        { name: 'junit', path: join(dir, 'missing-dir', 'out.xml') },
        { name: 'json', path: join(dir, 'report.json') },
        { name: 'github', path: '-' },
        { name: 'html', path: join(dir, 'report.html') },
      ],
      io,
    );
    expect(failures.map((f) => [f.name, f.path])).toEqual([['junit', join(dir, 'missing-dir', 'out.xml')]]);
    expect(io.err.trimEnd().split('\n')).toHaveLength(1);
    expect(io.err).toMatch(/^provcert: could not write the junit report to .*out\.xml: ENOENT/);
    expect(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'))).toMatchObject({ verdict: 'FAIL' });
    expect(await readFile(join(dir, 'report.html'), 'utf8')).toContain('Certification FAILED');
    expect(io.out).toContain('::error title=provcert quote-math::');
  });

  it('reports a writer that throws synchronously the same way', async () => {
    const io = memoryIo((path) => {
      if (path === 'bad.md') throw new Error('disk full\nsecond line is not printed');
    });
    const failures = await writeReports(
      passingReport(),
      [
        { name: 'markdown', path: 'bad.md' },
        { name: 'json', path: 'good.json' },
      ],
      io,
    );
    expect(failures).toEqual([{ name: 'markdown', path: 'bad.md', message: 'disk full' }]);
    expect(io.err).toBe('provcert: could not write the markdown report to bad.md: disk full\n');
  });
});

describe('prepareReportTargets (before the run)', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await scratchDir('prepare');
    await writeFile(join(dir, 'a-file'), 'not a folder');
    await mkdir(join(dir, 'a-folder'));
    await writeFile(join(dir, 'existing.xml'), 'previous report');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates missing parent folders (relative to cwd), leaves no probe file and keeps an existing file as it was', async () => {
    await prepareReportTargets(
      [
        { name: 'junit', path: 'reports/ci/junit.xml' },
        { name: 'json', path: '-' },
        { name: 'html', path: join(dir, 'existing.xml') },
      ],
      dir,
    );
    expect((await stat(join(dir, 'reports', 'ci'))).isDirectory()).toBe(true);
    expect(await readdir(join(dir, 'reports', 'ci'))).toEqual([]);
    expect(await readFile(join(dir, 'existing.xml'), 'utf8')).toBe('previous report');
  });

  const unusable: { name: string; targets: (dir: string) => ReportTarget[]; message: RegExp }[] = [
    {
      name: 'a directory',
      targets: (d) => [{ name: 'html', path: join(d, 'a-folder') }],
      message: /^cannot write the html report to .*a-folder: it is a directory; name a file inside it$/,
    },
    {
      name: 'a path whose parent is a file',
      targets: (d) => [{ name: 'junit', path: join(d, 'a-file', 'junit.xml') }],
      message: /^cannot write the junit report to .*junit\.xml: a part of its folder path is a file, not a folder$/,
    },
    {
      name: 'a path deeper under a file',
      targets: (d) => [{ name: 'markdown', path: join(d, 'a-file', 'x', 'y.md') }],
      message: /^cannot write the markdown report to .*y\.md: a part of its folder path is a file, not a folder$/,
    },
    {
      name: 'two reports to one file',
      targets: (d) => [
        { name: 'json', path: join(d, 'same.out') },
        { name: 'html', path: 'same.out' },
      ],
      message: /^the json and html reports would both be written to same\.out; give each its own file$/,
    },
  ];
  for (const c of unusable) {
    it(`refuses ${c.name} with one line`, async () => {
      const attempt = prepareReportTargets(c.targets(dir), dir);
      await expect(attempt).rejects.toBeInstanceOf(UsageError);
      await expect(attempt).rejects.toThrow(c.message);
    });
  }
});

describe('writeReports after a late failure', () => {
  it('names the failed report on stderr and still writes the others (the caller keeps the verdict)', async () => {
    const dir = await scratchDir('late');
    const io = memoryIo((path, content) => writeFile(path, content, 'utf8'));
    const failures = await writeReports(
      passingReport(),
      [
        { name: 'html', path: dir },
        { name: 'json', path: join(dir, 'r.json') },
      ],
      io,
    );
    expect(failures.map((f) => f.name)).toEqual(['html']);
    expect(io.err).toMatch(/^provcert: could not write the html report to .*: EISDIR/);
    expect(JSON.parse(await readFile(join(dir, 'r.json'), 'utf8'))).toMatchObject({ verdict: 'PASS' });
    await rm(dir, { recursive: true, force: true });
  });
});
