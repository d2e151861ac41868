import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReportFlags } from '../../config/flags.js';
import { loadContract } from '../../contract/load.js';
import { UsageError } from '../../model/errors.js';
import { resolveRunConfig } from '../../model/run-values.js';
import { FAULTS, type FaultName, REFERENCE_SLUG, startReferenceProvider } from '../../reference-provider/index.js';
import { startCoreServer } from '../../server/core-server.js';
import { didYouMean } from '../../util/did-you-mean.js';
import { certifyWithReports } from '../certify.js';
import type { CommandContext } from '../command.js';
import { parseAuthFlag, parsePositiveFlag } from '../options.js';
import { reportTargets } from '../report-flags.js';

interface DemoFlags extends ReportFlags {
  fault?: string[];
  auth?: string;
  quoteTtl?: string;
  /** False with --no-color. */
  color?: boolean;
  /** --events FILE|-: the NDJSON event stream. */
  events?: string;
  /** --keep-alive: the provider stays up after the run, so its reproduce lines can be run. */
  keepAlive?: boolean;
}

/** The variable the demo's reproduce lines read the credential from. */
const CREDENTIAL_VARIABLE = 'DEMO_PROVIDER_CREDENTIAL';

/**
 * `provcert demo`: the reference provider and the embedded core on free ports, certified end to end.
 * Credentials are generated per demo and never printed; nothing needs configuring.
 */
export async function execute({ io, signal }: CommandContext, flags: DemoFlags): Promise<number> {
  const faults = flags.fault ?? [];
  const unknown = faults.filter((f) => !(f in FAULTS));
  if (unknown.length > 0)
    throw new UsageError(
      `unknown fault ${unknown.map((f) => `${f}${didYouMean(f, Object.keys(FAULTS))}`).join(', ')}`,
      'see provcert mock-provider --list-faults',
    );
  const authMethod = parseAuthFlag(flags.auth ?? 'API_KEY');
  const ttl = parsePositiveFlag('--quote-ttl', flags.quoteTtl) ?? 5;
  const targets = reportTargets(flags);

  const credential = randomBytes(16).toString('hex');
  const webhookSecret = randomBytes(24).toString('hex');
  const contract = await loadContract();
  const scratch = await mkdtemp(join(tmpdir(), 'provcert-demo-'));
  const core = await startCoreServer({
    host: '127.0.0.1',
    port: 0,
    dataDir: join(scratch, 'core'),
    contract,
    secretFor: () => webhookSecret,
  });
  const provider = await startReferenceProvider({
    authMethod,
    credential,
    webhookSecret,
    webhookUrl: core.urlFor(REFERENCE_SLUG),
    faults: faults as FaultName[],
    dataFile: join(scratch, 'provider.json'),
    quoteTtlSeconds: ttl,
    // The run's clock: with a test's manual clock, the demo's quotes expire when its run's clock says so.
    ...(io.clock ? { clock: io.clock } : {}),
  });
  try {
    // The demo's secrets are its own, generated above: handed in, as the cli hands in what it reads.
    const { config } = resolveRunConfig(
      { baseUrl: provider.url, auth: authMethod, local: true, webhookPort: core.port },
      {
        credential,
        credentialSource: { kind: 'env', name: CREDENTIAL_VARIABLE },
        webhookSecret,
        webhookSecretSource: { kind: 'generated' },
      },
    );
    const screen = targets.some((t) => t.path === '-') || flags.events === '-' ? io.stderr : io.stdout;
    screen.write(`reference provider ${provider.url}${faults.length ? ` with fault ${faults.join(', ')}` : ''}\n`);
    const reports = { targets, github: false, noColor: flags.color === false, events: flags.events };
    // Ctrl-C or SIGTERM stops the demo like a run: report of what ran, the servers closed (main says 130 / 143).
    const { code } = await certifyWithReports(
      config,
      { contract, credential, webhookSecret, inbox: core, signal, ...(io.clock ? { clock: io.clock } : {}) },
      reports,
      io,
    );
    if (signal.aborted) return code;
    if (flags.keepAlive !== true) {
      screen.write(
        `the reproduce lines above reach this demo's provider, which stops now; provcert demo --keep-alive keeps it up\n`,
      );
      return code;
    }
    // The one place the demo's credential is shown: on stderr, as the line that lets the reproduce lines run.
    io.stderr.write(
      `the reference provider stays up at ${provider.url} until Ctrl-C; to run the reproduce lines above:\n` +
        `  export ${CREDENTIAL_VARIABLE}=${credential}\n`,
    );
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    return code;
  } finally {
    await provider.close();
    await core.close();
    await rm(scratch, { recursive: true, force: true });
  }
}
