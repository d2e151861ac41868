import { UsageError } from '../../model/errors.js';
import type { FleetReport } from '../../model/fleet-report.js';
import { MAX_DATA_FILE_BYTES } from '../../util/data-file.js';
import { type ReadFile, reportFileReader } from '../report-file.js';

const WHAT = 'provcert fleet report (the fleet.json provcert batch or merge-reports writes)';

const fleetReportFile = reportFileReader<FleetReport>({
  noun: 'fleet report',
  what: WHAT,
  expected: `the ${WHAT}`,
  // Each provider's run report is checked against spec/report.schema.json.
  schemas: ['report.schema.json', 'fleet-report.schema.json'],
  // A fleet.json holds every provider's whole run report.
  maxBytes: MAX_DATA_FILE_BYTES,
  recognize(value, path) {
    if (value['kind'] === 'fleet') return;
    const single = 'checks' in value && 'provider' in value;
    throw new UsageError(
      single
        ? `${path} is the report of a single run, not a ${WHAT}`
        : `${path} is not a ${WHAT}: it has no "kind": "fleet"`,
    );
  },
});

/** spec/fleet-report.schema.json, with spec/report.schema.json for each provider's run report. */
export const fleetReportValidator = fleetReportFile.validator;

/** Checks parsed JSON is a fleet report this provcert reads (reportVersion 1); problems are one-line UsageErrors. */
export const parseFleetReport = (value: unknown, path: string): FleetReport => fleetReportFile.parse(value, path);

/** Reads and validates a fleet.json file (relative paths from cwd) against its schema only; see read-report.ts. */
export const readFleetReport = (path: string, cwd: string): Promise<FleetReport> => fleetReportFile.read(path, cwd);

/** The same, with the sha256 of the file's bytes. */
export const readFleetReportFile = (path: string, cwd: string): Promise<ReadFile<FleetReport>> =>
  fleetReportFile.readWithDigest(path, cwd);
