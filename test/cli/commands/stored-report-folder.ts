import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { failingReport, passingReport } from '../../report/sample-reports.js';
import { storedReport } from '../../report/stored-report.js';
import { scratchDir } from '../../support/scratch.js';

/** A value set as the credential variable in the `report` tests: the stored report must never show it. */
export const LOCAL_SECRET = 'local-secret-Qw83zLp';

/**
 * The folder `provcert report` reads in its tests (in-process and through the built CLI): fail.json (a failing
 * report an older provcert left LOCAL_SECRET in), pass.json, and a-folder (not a report).
 */
export async function storedReportFolder(): Promise<string> {
  const dir = await scratchDir('report-command');
  const failing = storedReport(failingReport());
  const quoteMath = failing.checks.find((c) => c.id === 'quote-math');
  if (quoteMath) quoteMath.details = [...(quoteMath.details ?? []), `an older provcert kept ${LOCAL_SECRET} here`];
  await writeFile(join(dir, 'fail.json'), JSON.stringify(failing));
  await writeFile(join(dir, 'pass.json'), JSON.stringify(storedReport(passingReport())));
  await mkdir(join(dir, 'a-folder'));
  return dir;
}

/** The sha256 of a file, as the stored-report notice names it. */
export const sha256Of = async (path: string): Promise<string> =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
