import { Chalk } from 'chalk';
import type { AuthMethod } from '../model/contract-constants.js';
import { jsonTerminalSafe, sanitizeTerminalText } from '../util/terminal.js';
import type { Diagnosis, DiagnosisStatus } from './types.js';

export interface DoctorReport {
  baseUrl: string;
  authMethod?: AuthMethod;
  /** The words of `provcert run`: PASS when nothing failed (warnings never fail), else FAIL. */
  verdict: 'PASS' | 'FAIL';
  summary: Record<DiagnosisStatus, number>;
  /** The diagnoses, in DIAGNOSIS_IDS order (the JSON key users read is `findings`). */
  findings: Diagnosis[];
}

const SYMBOL: Record<DiagnosisStatus, string> = { ok: '✓', warn: '!', fail: '✗', skip: '-' };

/** The base URL as shown: user-info (a credential in the URL) masked. */
function displayUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    if (url.username || url.password) {
      url.username = '****';
      url.password = '';
    }
    return url.toString();
  } catch {
    return baseUrl;
  }
}

export function doctorReport(baseUrl: string, authMethod: AuthMethod | undefined, findings: Diagnosis[]): DoctorReport {
  const summary: Record<DiagnosisStatus, number> = { ok: 0, warn: 0, fail: 0, skip: 0 };
  for (const f of findings) summary[f.status] += 1;
  return {
    baseUrl: displayUrl(baseUrl),
    ...(authMethod ? { authMethod } : {}),
    verdict: summary.fail > 0 ? 'FAIL' : 'PASS',
    summary,
    findings,
  };
}

/** One line per finding (✓ ok · ! warning · ✗ failed · - skipped), the fix indented under it. */
export function renderDoctorText(report: DoctorReport, options: { color: boolean }): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const paint: Record<DiagnosisStatus, (s: string) => string> = {
    ok: c.green,
    warn: c.yellow,
    fail: c.red,
    skip: c.dim,
  };
  // Details quote what the server answered: shown escaped, never interpreted (colours are added after).
  const safe = (text: string): string => sanitizeTerminalText(text);
  const lines = [`provcert doctor: ${safe(report.baseUrl)}${report.authMethod ? ` (${report.authMethod})` : ''}`];
  for (const f of report.findings) {
    lines.push(`${paint[f.status](SYMBOL[f.status])} ${c.bold(safe(f.title))}: ${safe(f.detail)}`);
    if (f.fix && f.status !== 'ok') lines.push(`    fix: ${safe(f.fix)}`);
  }
  const { ok, warn, fail, skip } = report.summary;
  const verdict = report.verdict === 'PASS' ? c.green.bold('PASS') : c.red.bold('FAIL');
  lines.push(`${verdict}  ${ok} passed, ${warn} warning${warn === 1 ? '' : 's'}, ${fail} failed, ${skip} skipped`);
  return `${lines.join('\n')}\n`;
}

export const renderDoctorJson = (report: DoctorReport): string =>
  `${jsonTerminalSafe(JSON.stringify(report, null, 2))}\n`;
