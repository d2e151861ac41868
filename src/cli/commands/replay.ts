import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { parseCheckIds } from '../../checks/registry.js';
import type { RunReport } from '../../checks/types.js';
import { runCertification } from '../../runner/run.js';
import { compareResults, planReplay } from '../../runner/replay.js';
import { Redactor } from '../../http/redact.js';
import { loadContract } from '../../spec/load.js';
import { UsageError } from '../../util/result.js';
import { EXIT, printable, type CliIo } from '../io.js';
import type { SetExit } from '../program.js';
import { resolveRunOptions } from '../run-options.js';

async function readReport(path: string, cwd: string): Promise<RunReport> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, path), 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read report ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch {
    throw new UsageError(`${path} is not JSON; replay takes the JSON report of a run (provcert run --json FILE)`);
  }
  const r = report as Partial<RunReport>;
  if (r.reportVersion !== 1 || !Array.isArray(r.checks) || typeof r.inputs !== 'object') {
    throw new UsageError(`${path} is not a provcert JSON report (reportVersion 1 with checks and inputs)`);
  }
  return report as RunReport;
}

/** `provcert replay`: rerun a report's failed checks against the same provider with the same inputs. */
export function registerReplay(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('replay')
    .description('rerun the failed checks of a JSON report (or one) and say whether each failure still reproduces')
    .argument('<report>', 'JSON report of an earlier run')
    .option('--check <id>', 'rerun only this check')
    .option('--base-url <url>', 'override the recorded base URL (e.g. a local copy of the provider)')
    .option('--local', 'permit http:// and loopback base addresses')
    .action(async (path: string, opts: { check?: string; baseUrl?: string; local?: boolean }) => {
      const report = await readReport(path, io.cwd);
      let only;
      if (opts.check) {
        const { ids, unknown } = parseCheckIds(opts.check);
        if (unknown.length > 0 || ids.length !== 1) throw new UsageError(`--check takes one known check id (got "${opts.check}")`);
        only = ids[0];
      }
      const plan = planReplay(report, only);
      if ('error' in plan) throw new UsageError(plan.error);
      const flags = { ...plan.flags, ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}), ...(opts.local ? { local: true } : {}) };
      const { config, credential, webhookSecret } = resolveRunOptions(flags, io.env, io.cwd);
      // The report file and the provider's answers are both untrusted: masked, controls shown escaped.
      const redactor = new Redactor([credential, webhookSecret]);
      const say = (line: string): void => void io.stdout.write(`${printable(line, redactor)}\n`);
      say(`replaying ${plan.checks.join(', ')} against ${config.baseUrl} (seed ${config.seed})`);
      const rerun = await runCertification(config, { contract: await loadContract(), credential, webhookSecret });
      let reproduced = 0;
      for (const id of plan.checks) {
        const before = report.checks.find((c) => c.id === id);
        if (!before) continue;
        const { verdict, line } = compareResults(before, rerun.checks.find((c) => c.id === id));
        if (verdict !== 'not-reproduced') reproduced++;
        say(line);
      }
      say(reproduced > 0 ? `${reproduced} of ${plan.checks.length} failure(s) still reproduce` : 'no failure reproduces any more');
      setExit(reproduced > 0 ? EXIT.failed : EXIT.ok);
    });
}
