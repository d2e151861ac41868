import { UsageError } from '../../model/errors.js';
import type { FleetReport } from '../../model/fleet-report.js';
import { reportFileReader } from '../report-file.js';

const WHAT = 'provcert fleet report (the fleet.json provcert batch or merge-reports writes)';

const fleetReportFile = reportFileReader<FleetReport>({
  noun: 'fleet report',
  what: WHAT,
  expected: `the ${WHAT}`,
  // Each provider's run report is checked against spec/report.schema.json.
  schemas: ['report.schema.json', 'fleet-report.schema.json'],
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

/** Reads and validates a fleet.json file (relative paths from cwd). */
export const readFleetReport = (path: string, cwd: string): Promise<FleetReport> => fleetReportFile.read(path, cwd);
