import type { FleetReport } from '../../model/fleet-report.js';
import { jsonTerminalSafe } from '../../util/terminal.js';
import { maskFleetReport } from './rows.js';

/**
 * fleet.json: the fleet report itself, every provider's full run report included, so `merge-reports` can
 * rebuild every format from it (format: spec/fleet-report.schema.json).
 */
export function renderFleetJson(report: FleetReport): string {
  return `${jsonTerminalSafe(JSON.stringify(maskFleetReport(report), null, 2))}\n`;
}
