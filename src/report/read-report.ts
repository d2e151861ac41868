import { UsageError } from '../model/errors.js';
import type { FleetReport } from '../model/fleet-report.js';
import type { RunReport } from '../model/report.js';
import { MAX_DATA_FILE_BYTES } from '../util/data-file.js';
import { sanitizeTerminalText } from '../util/terminal.js';
import { fleetReportContradiction, type RequirementTexts, runReportContradiction } from './consistency.js';
import { readFleetReportFile } from './fleet/read.js';
import { reportFileReader } from './report-file.js';

const runReportFile = reportFileReader<RunReport>({
  noun: 'report',
  what: "provcert JSON report (a run's report in the json format)",
  expected: 'the JSON report of a run (the json report format)',
  schemas: ['report.schema.json'],
  recognize: () => undefined,
  // Far above a run's report: response bodies are kept truncated.
  maxBytes: MAX_DATA_FILE_BYTES,
});

/**
 * A report read back from a file: untrusted input (issue 25). What it says is shown as what it says; `digest`
 * (sha256 of the file's bytes) names exactly which file that was.
 */
export interface StoredReport<T> {
  report: T;
  /** The path as given, escaped for one line. */
  path: string;
  digest: string;
}

function refuseContradiction(path: string, contradiction: string | undefined): void {
  if (contradiction === undefined) return;
  const why = sanitizeTerminalText(contradiction, { oneLine: true }).slice(0, 300);
  throw new UsageError(`${path} contradicts itself: ${why}; refusing a report whose parts disagree`);
}

/**
 * The one reader of stored run reports (`report`, `replay`): bounded in size and depth, valid against
 * spec/report.schema.json, and consistent — what can be derived (summary, verdict, checks present, waivers,
 * requirement ids) is derived again and a contradiction is a one-line UsageError (exit 2) naming the first.
 */
export async function readStoredReport(
  path: string,
  cwd: string,
  catalog: RequirementTexts,
): Promise<StoredReport<RunReport>> {
  const { report, digest } = await runReportFile.readWithDigest(path, cwd);
  const shown = sanitizeTerminalText(path, { oneLine: true });
  refuseContradiction(shown, runReportContradiction(report, catalog));
  return { report, path: shown, digest };
}

/** The same for a fleet.json (`merge-reports`): each provider's run, and the fleet's counts and verdict. */
export async function readStoredFleetReport(
  path: string,
  cwd: string,
  catalog: RequirementTexts,
): Promise<StoredReport<FleetReport>> {
  const { report, digest } = await readFleetReportFile(path, cwd);
  const shown = sanitizeTerminalText(path, { oneLine: true });
  refuseContradiction(shown, fleetReportContradiction(report, catalog));
  return { report, path: shown, digest };
}
