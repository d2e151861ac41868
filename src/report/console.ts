import { Chalk, type ChalkInstance } from 'chalk';
import ora, { type Ora } from 'ora';
import type { CheckResult, RunReport } from '../checks/types.js';
import { citationText, violatedRequirements } from './requirements.js';
import { formatDuration, formatValue, requestLine, stripControl, summaryText } from './format.js';

type Env = Readonly<Record<string, string | undefined>>;
type OutputStream = NodeJS.WritableStream & { isTTY?: boolean };

export interface RunStartInfo {
  baseUrl: string;
  webhookUrl: string;
  profile: string;
  checks: number;
  /** Sections of the requirements the checks cite, to name them beside failures. */
  requirements?: RunReport['requirements'];
}

export interface ConsoleReporter {
  onRunStart(info: RunStartInfo): void;
  onCheckStart(id: string, title: string): void;
  onCheckEnd(result: CheckResult): void;
  onRunEnd(report: RunReport): void;
}

export interface ConsoleReporterOptions {
  stream: OutputStream;
  color: boolean;
  /** Spinners (TTY and not CI). Without it, output is plain lines, one per finished check. */
  interactive: boolean;
}

const isSet = (value: string | undefined): boolean => value !== undefined && value !== '' && value !== '0' && value !== 'false';

/** Colour unless the stream is not a terminal, NO_COLOR or CI is set. FORCE_COLOR wins, as in Node itself. */
export function shouldUseColor(stream: { isTTY?: boolean }, env: Env): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (isSet(env['CI'])) return false;
  return stream.isTTY === true;
}

/** Spinners only where a person watches a terminal. */
export const shouldBeInteractive = (stream: { isTTY?: boolean }, env: Env): boolean => stream.isTTY === true && !isSet(env['CI']);

/** Provider text printed raw could rewrite the screen or hide a failure with escape sequences. */
const terminalSafe = stripControl;

const indent = (text: string, spaces: number): string =>
  terminalSafe(text).split('\n').map((line) => `${' '.repeat(spaces)}${line}`).join('\n');

function problemLines(result: CheckResult, c: ChalkInstance, report: Pick<RunReport, 'requirements'>): string[] {
  const lines: string[] = [];
  const violated = violatedRequirements(report, result);
  if (violated.length > 0) lines.push(c.dim(indent(`violates: ${violated.map(citationText).join('; ')}`, 4)));
  for (const detail of result.details ?? []) lines.push(indent(`- ${detail}`, 4));
  if (result.expected !== undefined) lines.push(`    ${c.green('expected:')}`, indent(formatValue(result.expected), 6));
  if (result.actual !== undefined) lines.push(`    ${c.red('found:')}`, indent(formatValue(result.actual), 6));
  for (const row of result.quoteMath ?? []) {
    if (!row.ok) lines.push(indent(`${row.label}: expected ${row.formula} = ${row.expected}, provider ${row.actual ?? 'missing'}`, 4));
  }
  if (result.reproduce) lines.push(`    ${c.cyan('reproduce:')}`, indent(result.reproduce, 6));
  const first = result.evidence[0];
  if (first) lines.push(c.dim(indent(`request: ${requestLine(first)}`, 4)));
  return lines;
}

function checkLines(result: CheckResult, c: ChalkInstance, report: Pick<RunReport, 'requirements'>): string[] {
  const id = c.bold(terminalSafe(result.id));
  const message = terminalSafe(result.message).replace(/\n/g, '\n    ');
  const lines: string[] = [];
  switch (result.status) {
    case 'pass':
      lines.push(`${c.green('✓')} ${id}  ${terminalSafe(result.title)} ${c.dim(`(${formatDuration(result.durationMs)})`)}`);
      break;
    case 'skip':
      lines.push(c.dim(`- ${terminalSafe(result.id)}  ${message}`));
      break;
    case 'fail':
      lines.push(`${c.red('✗')} ${id}  ${c.red(message)}`, ...problemLines(result, c, report));
      break;
    case 'error':
      lines.push(`${c.yellow('!')} ${id}  ${c.yellow(message)}`, ...problemLines(result, c, report));
      break;
  }
  for (const warning of result.findings.filter((f) => f.severity === 'warn')) lines.push(c.yellow(indent(`warning [${warning.requirement}]: ${warning.message}`, 4)));
  return lines;
}

/** The live console reporter: one line per finished check, the reasons of failures, then the verdict. */
export function createConsoleReporter(options: ConsoleReporterOptions): ConsoleReporter {
  const { stream } = options;
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const running = new Set<string>();
  let cited: Pick<RunReport, 'requirements'> = { requirements: {} };
  const spinner: Ora | undefined = options.interactive
    ? ora({ stream, isEnabled: true, discardStdin: false, color: options.color ? 'cyan' : false })
    : undefined;

  const print = (lines: string[]): void => {
    const wasSpinning = spinner?.isSpinning === true;
    if (wasSpinning) spinner?.stop();
    stream.write(`${lines.join('\n')}\n`);
    if (wasSpinning && running.size > 0) spinner?.start(spinnerText());
  };

  const spinnerText = (): string => {
    const ids = [...running];
    const shown = ids.slice(0, 3).join(', ');
    return `running ${shown}${ids.length > 3 ? ` (+${ids.length - 3})` : ''}`;
  };

  return {
    onRunStart(info) {
      cited = { requirements: info.requirements ?? {} };
      print([
        `${c.bold('provcert')} certifying ${terminalSafe(info.baseUrl)} (profile ${terminalSafe(info.profile)}, ${info.checks} checks)`,
        `webhook receiver: ${c.cyan(terminalSafe(info.webhookUrl))}  ${c.dim('(the provider must post its status events here)')}`,
        '',
      ]);
    },
    onCheckStart(id) {
      running.add(id);
      if (!spinner) return;
      if (spinner.isSpinning) spinner.text = spinnerText();
      else spinner.start(spinnerText());
    },
    onCheckEnd(result) {
      running.delete(result.id);
      print(checkLines(result, c, cited));
      if (spinner?.isSpinning) spinner.text = spinnerText();
    },
    onRunEnd(report) {
      running.clear();
      spinner?.stop();
      const passed = report.verdict === 'PASS';
      const verdict = passed ? c.green.bold('PASS') : c.red.bold('FAIL');
      print([
        '',
        `${verdict}  ${summaryText(report.summary)}  (${formatDuration(report.durationMs)})`,
        passed
          ? c.green('Certification passed: the provider meets the Provider Integration Contract for this profile.')
          : c.red('Certification failed: fix the checks marked ✗ (or !) above and run again.'),
      ]);
    },
  };
}
