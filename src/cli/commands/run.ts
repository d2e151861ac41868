import type { Command } from 'commander';
import { loadRunOptions } from '../../config/load.js';
import { loadContract } from '../../spec/load.js';
import type { CliIo } from '../io.js';
import type { SetExit } from '../program.js';
import { resolveRunOptions } from '../run-options.js';
import { type RawRunOptions } from '../../config/flags.js';
import { certifyWithReports, stoppable } from '../certify.js';
import { prepareReportTargets } from '../../report/index.js';
import { reportTargets } from '../report-flags.js';
import { type ReportFlags } from '../../config/flags.js';

/** `run` flags shared with `demo` and the config file. */
export function addRunOptions(command: Command): Command {
  return command
    .option('--base-url <url>', 'provider API base address')
    .option('--auth <method>', 'API_KEY | BEARER_TOKEN | HMAC_SIGNATURE (aliases: api-key, bearer, hmac)')
    .option('--credential-env <name>', 'environment variable holding the credential (default PROVIDER_API_KEY)')
    .option('--credential-file <path>', 'file holding the credential (instead of an environment variable)')
    .option('--profile <profile>', 'TRANSACTIONAL | DISCOVERY_READONLY (default: inferred from the declared capabilities)')
    .option('--capabilities <list>', 'capabilities declared in the portal, comma-separated; must match GET /provider-info')
    .option('--fulfillment <mode>', 'DELIVERY | PICKUP | ONSITE | HYBRID | REMOTE (default: provider-info, else by provider type)')
    .option('--local', 'permit http:// and loopback/private base addresses (local self-test)')
    .option('--webhook-port <n>', 'port of the embedded webhook receiver (default 8787; 0 = any free port)')
    .option('--webhook-host <host>', 'host of the embedded webhook receiver (default 127.0.0.1)')
    .option('--webhook-secret-env <name>', 'environment variable with the webhook secret (default SERVICE_WEBHOOK_SECRET; generated and printed when unset)')
    .option('--webhook-timeout <ms>', 'how long to wait for each expected webhook event (default 30000)')
    .option('--timeout <ms>', 'per-request timeout (default 10000)')
    .option('--max-expiry-wait <s>', 'longest wait for a quote to expire (default 120)')
    .option('--only <ids>', 'run only these check ids (comma-separated)')
    .option('--skip <ids>', 'skip these check ids (comma-separated)')
    .option('--seed <seed>', 'seed for generated test data (recorded in the report for replay)')
    .option('--strict', 'count warnings as failures (a zero-warning gate); default: warnings never fail a run')
    .option('--concurrency <n>', 'checks running at once (default 8)')
    .option('--json <file>', 'write the JSON report to a file (- for stdout)')
    .option('--junit <file>', 'write a JUnit XML report')
    .option('--markdown <file>', 'write a Markdown summary (e.g. $GITHUB_STEP_SUMMARY)')
    .option('--html <file>', 'write a self-contained HTML report')
    .option('--reporter <names>', 'reporters, comma-separated: console, json, junit, markdown, html, github (github is automatic in GitHub Actions)')
    .option('--spec <path>', 'use this OpenAPI document instead of the bundled contract')
    .option('--config <file>', 'settings file (default ./provcert.config.yaml when present); flags > PROVCERT_* environment > file > defaults')
    .option('--no-color', 'plain output: no colour and no spinner (also NO_COLOR, CI, TERM=dumb, or output not a terminal)');
}

/** `color` is false with --no-color (commander's negated option). */
export type RunFlags = RawRunOptions & ReportFlags & { spec?: string; config?: string; color?: boolean };

/** Resolve the flags (config file, environment), certify, report; returns the exit code. */
export async function certifyAndReport(given: RunFlags, io: CliIo, signal?: AbortSignal): Promise<number> {
  const flags = await loadRunOptions({ flags: given, env: io.env, cwd: io.cwd, ...(given.config ? { configPath: given.config } : {}) });
  const targets = reportTargets(flags);
  const { config, credential, webhookSecret, generatedSecret } = resolveRunOptions(flags, io.env, io.cwd);
  const contract = await loadContract(flags.spec);
  await prepareReportTargets(targets, io.cwd); // an unusable report path is exit 2 before any request
  if (generatedSecret) {
    const name = flags.webhookSecretEnv ?? 'SERVICE_WEBHOOK_SECRET';
    io.stderr.write(`webhook secret generated for this run (${name} is not set); configure the provider to sign with: ${webhookSecret}\n`);
  }
  const github = flags.reporter?.split(',').map((s) => s.trim()).includes('github') ?? false;
  const reports = { targets, github, noColor: given.color === false };
  const { code } = await certifyWithReports(config, { contract, credential, webhookSecret, ...(signal ? { signal } : {}) }, reports, io);
  return code;
}

export function registerRun(program: Command, io: CliIo, setExit: SetExit): void {
  const description = 'certify a live provider end to end (exit 0 passed, 1 failed, 2 usage/config/fatal, 130/143 stopped by Ctrl-C/SIGTERM)';
  addRunOptions(program.command('run').description(description)).action(
    // Ctrl-C or SIGTERM cuts the waits and requests short; the report of what ran is still written (exit 130 / 143).
    async (flags: RunFlags) => setExit(await stoppable((signal) => certifyAndReport(flags, io, signal))),
  );
}
