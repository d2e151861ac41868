import type { RunReport } from '../model/report.js';
import { jsonTerminalSafe } from '../util/terminal.js';
import { maskReport } from './mask.js';

/** The machine-readable report (format: spec/report.schema.json). */
export function renderJson(report: RunReport): string {
  // Printable as is (--json -): bidi and C1 controls escaped as \uXXXX, the same JSON value.
  return `${jsonTerminalSafe(JSON.stringify(maskReport(report), null, 2))}\n`;
}
