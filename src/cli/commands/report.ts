import { Chalk, type ChalkInstance } from 'chalk';
import type { ReportFlags } from '../../config/flags.js';
import { loadRequirements } from '../../contract/requirements.js';
import { DEFAULT_CREDENTIAL_ENV, DEFAULT_WEBHOOK_SECRET_ENV } from '../../model/contract-constants.js';
import type { RunReport } from '../../model/report.js';
import { reportCheckLines, verdictLines, waiverLines } from '../../report/failure-text.js';
import { providerLabel } from '../../report/format.js';
import { renderGithubAnnotations } from '../../report/github.js';
import { prepareReportTargets, writeReports } from '../../report/index.js';
import { type StoredOrigin, storedReportNotice } from '../../report/origin.js';
import { readStoredReport } from '../../report/read-report.js';
import { nextStepText, recapEntries, recapLines } from '../../report/recap.js';
import { Redactor } from '../../util/redact.js';
import { shellWord } from '../../util/shell-word.js';
import { sanitizeTerminalText } from '../../util/terminal.js';
import { shouldUseColor } from '../../util/terminal-mode.js';
import type { CommandContext } from '../command.js';
import { EXIT } from '../io.js';
import { reportTargets } from '../report-flags.js';

interface ReportCommandFlags extends ReportFlags {
  github?: boolean;
}

/** A stored run as `run` printed it: who and when, a line per check with the failure details, the verdict. */
function consoleLines(report: RunReport, c: ChalkInstance, origin: StoredOrigin): string[] {
  const about = `${providerLabel(report.provider)} (profile ${report.provider.profile ?? 'unknown'}; `;
  const when = `run ${report.startedAt}, provcert ${report.tool.version}, contract ${report.contract.version})`;
  return [
    c.yellow(sanitizeTerminalText(storedReportNotice(origin), { oneLine: true })),
    `${c.bold('provcert')} report of ${sanitizeTerminalText(about + when)}`,
    '',
    ...reportCheckLines(report, c),
    ...waiverLines(report, c),
    ...recapLines(report, c),
    '',
    ...verdictLines(report, c),
    ...nextLines(report, origin, c),
  ];
}

/** After a stored report: its failures rerun against the same provider with `provcert replay`. */
function nextLines(report: RunReport, origin: StoredOrigin, c: ChalkInstance): string[] {
  const next = nextStepText(recapEntries(report), `provcert replay ${shellWord(origin.path)}`);
  return next ? [c.cyan(next)] : [];
}

/**
 * Secrets the stored report must not show even if an older or edited report kept one: the values of this
 * person's credential and webhook secret variables. A variable the report names is not read (issue 25).
 */
function redactorFor(env: NodeJS.ProcessEnv): Redactor {
  return new Redactor([env[DEFAULT_CREDENTIAL_ENV], env[DEFAULT_WEBHOOK_SECRET_ENV]]);
}

/** `provcert report`: render a stored JSON report in any format, without contacting the provider. */
export async function execute({ io }: CommandContext, path: string, flags: ReportCommandFlags): Promise<number> {
  const targets = reportTargets(flags);
  const named = (flags.reporter ?? '').split(',').map((s) => s.trim().toLowerCase());
  const github = flags.github === true || named.includes('github');
  const consoleWanted = named.includes('console') || (targets.length === 0 && !github);
  const { report: stored, digest } = await readStoredReport(path, io.cwd, await loadRequirements());
  const origin: StoredOrigin = { path, digest };
  await prepareReportTargets(targets, io.cwd);
  const report = redactorFor(io.env).deep(stored);
  // With a report on stdout, everything for people goes to stderr.
  const screen = targets.some((t) => t.path === '-') ? io.stderr : io.stdout;
  if (consoleWanted) {
    const c = new Chalk({ level: shouldUseColor(screen, io.env) ? 1 : 0 });
    screen.write(`${consoleLines(report, c, origin).join('\n')}\n`);
  }
  if (github) screen.write(renderGithubAnnotations(report, origin));
  const failures = await writeReports(report, targets, io, origin);
  for (const target of targets) {
    const written = target.path !== '-' && !failures.some((f) => f.path === target.path);
    if (written) io.stderr.write(`provcert: wrote the ${target.name} report to ${target.path}\n`);
  }
  return failures.length > 0 ? EXIT.usage : EXIT.ok;
}
