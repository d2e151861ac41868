import type { RunReport } from '../model/report.js';
import { reportFileReader } from './report-file.js';

const runReportFile = reportFileReader<RunReport>({
  noun: 'report',
  what: 'provcert JSON report (written by provcert run --json FILE)',
  expected: 'the JSON report of a run (provcert run --json FILE)',
  schemas: ['report.schema.json'],
  recognize: () => undefined,
});

/** Reads and validates a JSON report file (relative paths from cwd): spec/report.schema.json, reportVersion 1. */
export const readReport = (path: string, cwd: string): Promise<RunReport> => runReportFile.read(path, cwd);
