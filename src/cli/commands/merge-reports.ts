import { loadRequirements } from '../../contract/requirements.js';
import { mergeFleetReports } from '../../fleet/merge-reports.js';
import { DEFAULT_CREDENTIAL_ENV, DEFAULT_WEBHOOK_SECRET_ENV } from '../../model/contract-constants.js';
import type { FleetReport } from '../../model/fleet-report.js';
import { gatePasses } from '../../model/verdict.js';
import { renderFleetConsole } from '../../report/fleet/console.js';
import { FleetReportWriteError, prepareFleetOutput, writeFleetReports } from '../../report/fleet/write.js';
import { readStoredFleetReport } from '../../report/read-report.js';
import { Redactor } from '../../util/redact.js';
import { sanitizeTerminalText } from '../../util/terminal.js';
import { shouldUseColor } from '../../util/terminal-mode.js';
import type { CommandContext } from '../command.js';
import { EXIT } from '../io.js';

export const DEFAULT_FLEET_OUT = 'provcert-fleet';

interface MergeFlags {
  out?: string;
  markdown?: string;
  color?: boolean;
}

/**
 * Secrets no merged output may show even if a shard's report kept one: the values of this person's credential and
 * webhook secret variables. A variable a report names is not read (issue 25).
 */
function redactorFor(env: NodeJS.ProcessEnv): Redactor {
  return new Redactor([env[DEFAULT_CREDENTIAL_ENV], env[DEFAULT_WEBHOOK_SECRET_ENV]]);
}

/**
 * `provcert merge-reports FILES...`: the fleet.json of each shard as one fleet report. Prints the fleet table,
 * writes every format to --out; exit 0 when the merged fleet passes, 1 when it fails, 2 when the files cannot be
 * merged (different fleets or provcert versions, overlapping shards) or read.
 */
export async function execute({ io }: CommandContext, files: string[], flags: MergeFlags): Promise<number> {
  const outDir = flags.out ?? DEFAULT_FLEET_OUT;
  const reports: FleetReport[] = [];
  const catalog = await loadRequirements();
  for (const file of files) reports.push((await readStoredFleetReport(file, io.cwd, catalog)).report);
  const warn = (line: string): void => {
    io.stderr.write(`provcert: warning: ${sanitizeTerminalText(line, { oneLine: true })}\n`);
  };
  const merged = redactorFor(io.env).deep(mergeFleetReports(reports, { warn }));
  const markdown = flags.markdown ? { markdownFile: flags.markdown } : {};
  await prepareFleetOutput(outDir, { cwd: io.cwd, ...markdown });
  const color = shouldUseColor(io.stdout, io.env, { noColor: flags.color === false });
  io.stdout.write(renderFleetConsole(merged, { color }));
  try {
    await writeFleetReports(merged, outDir, { cwd: io.cwd, ...markdown });
    io.stderr.write(`provcert: wrote the merged fleet reports to ${sanitizeTerminalText(outDir, { oneLine: true })}\n`);
  } catch (error) {
    // The verdict stands: a report that could not be written is named, as after a run.
    if (!(error instanceof FleetReportWriteError)) throw error;
    for (const failure of error.failures)
      io.stderr.write(
        `provcert: ${sanitizeTerminalText(`could not write ${failure.path}: ${failure.message}`, { oneLine: true })}\n`,
      );
  }
  return gatePasses(merged.verdict) ? EXIT.ok : EXIT.failed;
}
