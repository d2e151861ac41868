import type { RunReport } from '../model/report.js';
import { jsonTerminalSafe } from '../util/terminal.js';
import { maskReport } from './mask.js';
import { type StoredOrigin, storedReportNotice } from './origin.js';

/** The machine-readable report (format: spec/report.schema.json). */
export function renderJson(report: RunReport, origin?: StoredOrigin): string {
  const stored = origin
    ? { storedReport: { file: origin.path, sha256: origin.digest, note: storedReportNotice(origin) } }
    : {};
  // Printable as is (--json -): bidi and C1 controls escaped as \uXXXX, the same JSON value.
  return `${jsonTerminalSafe(JSON.stringify({ ...maskReport(report), ...stored }, null, 2))}\n`;
}
