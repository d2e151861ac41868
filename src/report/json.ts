import type { RunReport } from '../checks/types.js';
import { maskReport } from './mask.js';

/** The machine-readable report (format: spec/report.schema.json). */
export function renderJson(report: RunReport): string {
  return `${JSON.stringify(maskReport(report), null, 2)}\n`;
}
