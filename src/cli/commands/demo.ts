import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { FAULTS, REFERENCE_SLUG, startReferenceProvider, type FaultName } from '../../reference-provider/index.js';
import { parseAuthMethod } from '../../http/auth.js';
import { startCoreServer } from '../../server/core-server.js';
import { loadContract } from '../../spec/load.js';
import { UsageError } from '../../model/errors.js';
import type { CliIo } from '../io.js';
import type { SetExit } from '../program.js';
import { certifyWithReports, stoppable } from '../certify.js';
import { reportTargets } from '../report-flags.js';
import { type ReportFlags } from '../../config/flags.js';
import { resolveRunOptions } from '../run-options.js';

interface DemoFlags extends ReportFlags {
  fault?: string[];
  auth?: string;
  quoteTtl?: string;
  /** False with --no-color. */
  color?: boolean;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, ...value.split(',').map((s) => s.trim()).filter(Boolean)];

/**
 * `provcert demo`: the reference provider and the embedded core on free ports, certified end to end.
 * Credentials are generated per demo and never printed; nothing needs configuring.
 */
export function registerDemo(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('demo')
    .description('certify the bundled reference provider end to end (no configuration); --fault NAME shows a failure')
    .option('--fault <name>', 'switch on a fault of the reference provider (repeatable; see provcert mock-provider --list-faults)', collect)
    .option('--auth <method>', 'auth method of the reference provider', 'API_KEY')
    .option('--quote-ttl <seconds>', 'quote validity of the reference provider (default 5)')
    .option('--json <file>', 'write the JSON report to a file (- for stdout)')
    .option('--junit <file>', 'write a JUnit XML report')
    .option('--markdown <file>', 'write a Markdown summary')
    .option('--html <file>', 'write a self-contained HTML report')
    .option('--no-color', 'plain output: no colour and no spinner')
    .action(async (flags: DemoFlags) => {
      const faults = flags.fault ?? [];
      const unknown = faults.filter((f) => !(f in FAULTS));
      if (unknown.length > 0) throw new UsageError(`unknown fault ${unknown.join(', ')}; see provcert mock-provider --list-faults`);
      const authMethod = parseAuthMethod(flags.auth ?? 'API_KEY');
      if (!authMethod) throw new UsageError(`--auth "${flags.auth}" is not an auth method; use API_KEY, BEARER_TOKEN or HMAC_SIGNATURE`);
      const ttl = flags.quoteTtl === undefined ? 5 : Number(flags.quoteTtl);
      if (!Number.isFinite(ttl) || ttl <= 0) throw new UsageError('--quote-ttl must be a positive number of seconds');
      const targets = reportTargets(flags);

      const credential = randomBytes(16).toString('hex');
      const webhookSecret = randomBytes(24).toString('hex');
      const contract = await loadContract();
      const scratch = await mkdtemp(join(tmpdir(), 'provcert-demo-'));
      const core = await startCoreServer({ host: '127.0.0.1', port: 0, dataDir: join(scratch, 'core'), contract, secretFor: () => webhookSecret });
      const provider = await startReferenceProvider({
        authMethod, credential, webhookSecret, webhookUrl: core.urlFor(REFERENCE_SLUG),
        faults: faults as FaultName[], dataFile: join(scratch, 'provider.json'), quoteTtlSeconds: ttl,
      });
      try {
        const env = { DEMO_PROVIDER_CREDENTIAL: credential };
        const { config } = resolveRunOptions(
          { baseUrl: provider.url, auth: authMethod, local: true, credentialEnv: 'DEMO_PROVIDER_CREDENTIAL', webhookPort: String(core.port) },
          env,
          io.cwd,
        );
        (targets.some((t) => t.path === '-') ? io.stderr : io.stdout).write(`reference provider ${provider.url}${faults.length ? ` with fault ${faults.join(', ')}` : ''}\n`);
        const reports = { targets, github: false, noColor: flags.color === false };
        // Ctrl-C or SIGTERM stops the demo like a run: report of what ran, exit 130 / 143, the servers closed.
        const code = await stoppable(async (signal) => {
          const { code: verdict } = await certifyWithReports(config, { contract, credential, webhookSecret, inbox: core, signal }, reports, io);
          return verdict;
        });
        setExit(code);
      } finally {
        await provider.close();
        await core.close();
        await rm(scratch, { recursive: true, force: true });
      }
    });
}
