/** The fleet reporters `provcert batch` uses: the console summary, and the report files in every format (write.ts). */
export { renderFleetConsole } from './console.js';
export { FleetReportWriteError, prepareFleetOutput, writeFleetReports } from './write.js';
