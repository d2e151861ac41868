import type { RunReport } from '../model/report.js';
import { NO_SECRETS, type Redactor } from '../util/redact.js';

/**
 * A copy of the report with every string masked: messages, details, warnings, expected/actual, evidence
 * (headers by name, bodies), reproduce, webhook timeline, inputs. Every renderer starts from this.
 * The run already masks its report with its secrets (runner/run.ts); without a redactor this is the
 * second line of defence, masking credential headers by name whatever the engine did before.
 */
export function maskReport(report: RunReport, redactor: Redactor = NO_SECRETS): RunReport {
  return redactor.deep(report);
}
