import { loadFleetFile } from '../../config/fleet.js';
import { loadContract } from '../../contract/load.js';
import { DEFAULT_FLEET_CONCURRENCY, runFleet } from '../../fleet/run-fleet.js';
import { selectShard } from '../../fleet/shard.js';
import { UsageError } from '../../model/errors.js';
import type { FleetReport, Shard } from '../../model/fleet-report.js';
import { gatePasses } from '../../model/verdict.js';
import {
  FleetReportWriteError,
  prepareFleetOutput,
  renderFleetConsole,
  writeFleetReports,
} from '../../report/fleet/index.js';
import { renderFleetProgressLine } from '../../report/fleet-progress.js';
import { urlSecrets } from '../../util/redact.js';
import { sanitizeTerminalText } from '../../util/terminal.js';
import { terminalMode } from '../../util/terminal-mode.js';
import type { CommandContext } from '../command.js';
import { openEventsFlag } from '../events-flag.js';
import { resolveMember } from '../fleet-members.js';
import { EXIT } from '../io.js';
import { parseIntegerFlag } from '../options.js';
import { shardFromFlags } from '../shard-flags.js';

export interface BatchFlags {
  concurrency?: string;
  shard?: string;
  shardIndexEnv?: string;
  shardTotal?: string;
  out: string;
  markdown?: string;
  spec?: string;
  /** --events FILE|-: the NDJSON event stream, every run's lines tagged with its provider. */
  events?: string;
  /** false with --no-color. */
  color?: boolean;
}

export const DEFAULT_FLEET_OUT = 'provcert-fleet';

/**
 * `provcert batch FLEET_FILE`: certifies the fleet's providers (or one shard of them) in one process, prints a
 * line per provider as it finishes and the fleet table at the end, and writes every report to --out. Flags and
 * the fleet file are checked before anything runs (exit 2); Ctrl-C or SIGTERM stops the runs, and what was done
 * is still reported (main turns the signal into 130/143).
 */
export async function execute({ io, signal }: CommandContext, fleetPath: string, flags: BatchFlags): Promise<number> {
  const shard = shardFromFlags(flags, io.env);
  const concurrency = parseIntegerFlag('--concurrency', flags.concurrency, DEFAULT_FLEET_CONCURRENCY, 1, 256);
  const fleet = await loadFleetFile(fleetPath, io.cwd);
  const contract = await loadContract(flags.spec);
  const outDir = flags.out;
  const writeOptions = { cwd: io.cwd, ...(flags.markdown ? { markdownFile: flags.markdown } : {}) };
  await prepareFleetOutput(outDir, writeOptions); // an unusable output path is exit 2 before any request

  const entries = shard ? selectShard(fleet.providers, shard) : fleet.providers;
  // An empty fleet or shard would pass with nothing certified: a templating mistake must not turn a gate green.
  if (fleet.providers.length === 0)
    throw new UsageError(`${fleetPath}: the fleet has no providers (providers: []); list at least one`);
  if (entries.length === 0 && shard)
    throw new UsageError(
      `shard ${shard.index}/${shard.total} of ${fleetPath} holds none of its ${fleet.providers.length} provider(s); use fewer shards`,
    );
  const members = entries.map((entry) => resolveMember(entry, fleet, io.env, io.cwd));
  const secrets = members.flatMap((m) => [
    ...urlSecrets(m.baseUrl),
    ...(m.run ? [m.run.credential, m.run.webhookSecret] : []),
  ]);
  const markdownTarget = flags.markdown ? [{ name: 'markdown' as const, path: flags.markdown }] : [];
  const events = await openEventsFlag(flags.events, markdownTarget, io, secrets);
  // The event stream on stdout keeps stdout machine-readable: the console moves to stderr.
  const screen = events?.target === '-' ? io.stderr : io.stdout;
  const { color } = terminalMode(screen, io.env, { noColor: flags.color === false });
  screen.write(`${headline(fleet.name, members.length, fleet.providers.length, shard, concurrency)}\n`);
  events?.fleetStart({ name: fleet.name, providers: members.length, concurrency, ...(shard ? { shard } : {}) });

  const report = await runFleet({
    identity: fleet.identity,
    members,
    contract,
    webhookHost: fleet.webhookHost,
    webhookPort: fleet.webhookPort,
    concurrency,
    expectedFailures: fleet.expectedFailures,
    ...(shard ? { shard } : {}),
    signal,
    ...(io.clock ? { clock: io.clock } : {}),
    hooks: {
      onReceiverReady: (receiver) => screen.write(`webhook receiver: ${receiver.url}/api/v1/webhooks/{slug}\n`),
      onProviderEnd: (result) => screen.write(renderFleetProgressLine(result, { color })),
      ...(events ? { runHooks: (slug: string) => events.runHooks(slug) } : {}),
    },
  });
  screen.write(`\n${renderFleetConsole(report, { color })}`);
  await writeAll(report, outDir, writeOptions, io.stderr);
  if (events) {
    // Last, after the waivers are judged, so each run-end and fleet-end carry the verdicts the exit code follows.
    const ending = report.interruptedBy ? { interruptedBy: report.interruptedBy } : {};
    for (const provider of report.providers) {
      const waivers = report.waivers.filter((w) => w.provider === provider.slug);
      if (provider.report) events.runEnd(provider.report, provider.slug, { ...ending, waivers });
    }
    events.fleetEnd(report, { ...ending, waivers: report.waivers });
    await events.close();
  }
  if (report.interruptedBy)
    io.stderr.write(`stopped by ${report.interruptedBy}: reports of the providers that ran are in ${outDir}\n`);
  return gatePasses(report.verdict) ? EXIT.ok : EXIT.failed;
}

function headline(name: string, here: number, total: number, shard: Shard | undefined, concurrency: number): string {
  const fleet = `fleet ${sanitizeTerminalText(name, { oneLine: true })}`;
  if (!shard) return `${fleet}: certifying ${total} provider(s), ${Math.min(concurrency, total)} at once`;
  const scope = `shard ${shard.index}/${shard.total} of ${fleet}`;
  return `${scope}: certifying ${here} of ${total} provider(s), ${Math.min(concurrency, here)} at once`;
}

/** The reports are written whatever the verdict; a file that cannot be written is named and never hides it. */
async function writeAll(
  report: FleetReport,
  outDir: string,
  options: { cwd: string; markdownFile?: string },
  stderr: NodeJS.WritableStream,
): Promise<void> {
  try {
    await writeFleetReports(report, outDir, options);
  } catch (e) {
    if (!(e instanceof FleetReportWriteError)) throw e;
    for (const failure of e.failures) stderr.write(`provcert: could not write ${failure.path}: ${failure.message}\n`);
  }
}
