/** The fleet reporters: a FleetReport (provcert batch, provcert merge-reports) in every format. */
export { renderFleetConsole } from './console.js';
export { renderFleetHtmlIndex } from './html.js';
export { renderFleetJson } from './json.js';
export { renderFleetJUnit } from './junit.js';
export { renderFleetMarkdown } from './markdown.js';
export { readFleetReport } from './read.js';
export { FLEET_FILES, FleetReportWriteError, prepareFleetOutput, writeFleetReports } from './write.js';
