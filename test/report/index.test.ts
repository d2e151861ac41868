import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isReporterName, REPORTER_NAMES, REPORTERS, writeReports, type ReportIo } from '../../src/report/index.js';
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
  it('lists the file reporters by name', () => {
    expect(REPORTER_NAMES).toEqual(['json', 'junit', 'markdown', 'html', 'github']);
    expect(isReporterName('junit')).toBe(true);
    expect(isReporterName('console')).toBe(false);
    expect(isReporterName('toString')).toBe(false);
  });

  it.each(REPORTER_NAMES)('%s: the canary secret appears in no output', (name) => {
    for (const report of [failingReport(), passingReport()]) {
      const out = REPORTERS[name](report);
      expect(out).not.toContain(CANARY);
    }
  });

  it.each(REPORTER_NAMES)('%s: only reads the report', (name) => {
    const report = failingReport();
    const before = JSON.stringify(report);
    REPORTERS[name](report);
    expect(JSON.stringify(report)).toBe(before);
  });
});

describe('writeReports', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'provcert-report-'));
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
    const failures = await writeReports(passingReport(), [{ name: 'markdown', path: 'bad.md' }, { name: 'json', path: 'good.json' }], io);
    expect(failures).toEqual([{ name: 'markdown', path: 'bad.md', message: 'disk full' }]);
    expect(io.err).toBe('provcert: could not write the markdown report to bad.md: disk full\n');
  });
});
