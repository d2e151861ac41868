import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { ALL_CAPABILITIES, FAULTS, REFERENCE_SLUG, VARIANTS, isFaultName, isVariant, startReferenceProvider, type FaultName, type ReferenceProviderOptions } from '../../reference-provider/index.js';
import { DEFAULT_CREDENTIAL_ENV, DEFAULT_WEBHOOK_SECRET_ENV } from '../../model/contract-constants.js';
import { didYouMean } from '../../config/explain.js';
import { parseAuthMethod } from '../../http/auth.js';
import { UsageError } from '../../model/errors.js';
import { EXIT, processIo, type CliIo } from '../io.js';
import type { SetExit } from '../program.js';

interface MockProviderFlags {
  port: string;
  host: string;
  auth: string;
  fault: string[];
  listFaults?: boolean;
  webhookUrl?: string;
  quoteTtl?: string;
  dataFile?: string;
  capabilities?: string;
  credentialEnv?: string;
  webhookSecretEnv?: string;
  variant: string;
}

const DEFAULT_PORT = 4010;

const collect = (value: string, previous: string[]): string[] => [...previous, ...value.split(',').map((s) => s.trim()).filter(Boolean)];

/** Resolves on the first SIGINT or SIGTERM. */
function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

export function faultListing(): string {
  const names = Object.keys(FAULTS);
  const nameWidth = Math.max(...names.map((n) => n.length));
  const checkWidth = Math.max(...Object.values(FAULTS).map((f) => f.check.length));
  return Object.entries(FAULTS)
    .map(([name, fault]) => `${name.padEnd(nameWidth)}  ${fault.check.padEnd(checkWidth)}  ${fault.description}`)
    .join('\n');
}

function secretFrom(env: NodeJS.ProcessEnv, name: string, what: string, flag: string): string {
  const value = env[name];
  if (!value) throw new UsageError(`missing ${what}: the environment variable ${name} is not set`, `set it, or name another variable with ${flag}`);
  return value;
}

/**
 * The secret only signs webhooks, so it is needed only with --webhook-url. Without a URL nothing is sent and an
 * unused random value stands in; with one, a missing secret is refused: a guessed secret would make every event
 * fail verification at the receiver for a reason that is not the provider's.
 */
function webhookSecretFor(flags: MockProviderFlags, env: NodeJS.ProcessEnv): string {
  const name = flags.webhookSecretEnv ?? DEFAULT_WEBHOOK_SECRET_ENV;
  if (flags.webhookUrl === undefined) return env[name] || randomBytes(24).toString('hex');
  if (!env[name]) {
    throw new UsageError(
      `--webhook-url needs the webhook secret to sign the events: the environment variable ${name} is not set`,
      'set it to the secret the receiver verifies with (the same value for provcert run or serve), or name another variable with --webhook-secret-env',
    );
  }
  return env[name];
}

function positiveNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a positive number (found "${value}")`);
  return n;
}

/** Turns the flags into provider options; every problem is a UsageError naming the flag or variable. */
export function mockProviderOptions(flags: MockProviderFlags, env: NodeJS.ProcessEnv): ReferenceProviderOptions {
  const authMethod = parseAuthMethod(flags.auth);
  if (!authMethod) throw new UsageError(`--auth "${flags.auth}" is not an auth method; use API_KEY, BEARER_TOKEN or HMAC_SIGNATURE`);
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number from 0 to 65535 (found "${flags.port}")`);
  const unknown = flags.fault.filter((f) => !isFaultName(f));
  const names = Object.keys(FAULTS);
  if (unknown.length > 0) {
    throw new UsageError(`unknown fault ${unknown.map((f) => `${f}${didYouMean(f, names)}`).join(', ')}`, 'see provcert mock-provider --list-faults');
  }
  const faults = flags.fault.filter(isFaultName);

  let capabilities: string[] | undefined;
  if (flags.capabilities !== undefined) {
    capabilities = flags.capabilities.split(',').map((c) => c.trim().toUpperCase()).filter(Boolean);
    const known: readonly string[] = ALL_CAPABILITIES;
    const bad = capabilities.filter((c) => !known.includes(c));
    if (bad.length > 0) throw new UsageError(`unknown capability ${bad.join(', ')}; known: ${ALL_CAPABILITIES.join(', ')}`);
  }
  if (flags.webhookUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(flags.webhookUrl)) {
    throw new UsageError(`--webhook-url must be an http(s) URL (found "${flags.webhookUrl}")`);
  }
  const quoteTtlSeconds = positiveNumber(flags.quoteTtl, '--quote-ttl');
  if (!isVariant(flags.variant)) throw new UsageError(`--variant "${flags.variant}" is not a variant; use ${VARIANTS.join(', ')}`);

  const credential = secretFrom(env, flags.credentialEnv ?? DEFAULT_CREDENTIAL_ENV, 'provider credential', '--credential-env');
  const webhookSecret = webhookSecretFor(flags, env);
  return {
    host: flags.host,
    port,
    authMethod,
    credential,
    webhookSecret,
    faults,
    variant: flags.variant,
    ...(flags.webhookUrl !== undefined ? { webhookUrl: flags.webhookUrl } : {}),
    ...(flags.dataFile !== undefined ? { dataFile: flags.dataFile } : {}),
    ...(quoteTtlSeconds !== undefined ? { quoteTtlSeconds } : {}),
    ...(capabilities !== undefined ? { capabilities } : {}),
  };
}

/**
 * `provcert mock-provider`: the reference provider on a port, until SIGINT/SIGTERM. Secrets come from the
 * environment only and are never printed. `untilStopped` is injectable for tests.
 */
export function registerMockProvider(
  program: Command,
  io: CliIo = processIo(),
  setExit: SetExit = () => undefined,
  untilStopped: () => Promise<void> = untilSignal,
): void {
  program
    .command('mock-provider')
    .description(`serve the reference provider "${REFERENCE_SLUG}" (every provider route; --fault NAME breaks one contract rule)`)
    .option('--port <n>', 'port to listen on (0 = any free port)', String(DEFAULT_PORT))
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--auth <method>', 'API_KEY, BEARER_TOKEN or HMAC_SIGNATURE', 'API_KEY')
    .option('--fault <name>', 'switch on a fault (repeatable, or comma-separated)', collect, [])
    .option('--variant <name>', `a conforming variant: ${VARIANTS.join(', ')} (minimal omits every optional field; noisy adds vendor fields and repeats events)`, 'standard')
    .option('--list-faults', 'list the faults: name, the check that catches it, what it breaks')
    .option('--webhook-url <url>', 'where signed status events are posted, e.g. http://127.0.0.1:8787/api/v1/webhooks/demo-kitchen (default: not sent; needs the webhook secret)')
    .option('--quote-ttl <seconds>', 'quote validity in seconds (default 5)')
    .option('--data-file <path>', 'JSON file keeping actions and idempotency keys across restarts (default: a temporary file removed on exit)')
    .option('--capabilities <list>', 'declare these capabilities instead of all eleven (comma-separated)')
    .option('--credential-env <name>', `environment variable with the credential (default ${DEFAULT_CREDENTIAL_ENV})`)
    .option('--webhook-secret-env <name>', `environment variable with the webhook secret that signs events (default ${DEFAULT_WEBHOOK_SECRET_ENV}; only needed with --webhook-url)`)
    .action(async (flags: MockProviderFlags) => {
      if (flags.listFaults) {
        io.stdout.write(`${faultListing()}\n`);
        setExit(EXIT.ok);
        return;
      }
      const options = mockProviderOptions(flags, io.env);
      const provider = await startReferenceProvider({ ...options, log: (line) => io.stderr.write(`${line}\n`) }).catch((e: unknown) => {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE') throw new UsageError(`port ${options.port ?? DEFAULT_PORT} on ${options.host ?? '127.0.0.1'} is already in use`);
        if (code === 'EADDRNOTAVAIL') throw new UsageError(`cannot listen on ${options.host ?? '127.0.0.1'}: address not available`);
        throw new UsageError(e instanceof Error ? e.message : String(e));
      });
      const faults: readonly FaultName[] = options.faults ?? [];
      const variantNote = options.variant === undefined || options.variant === 'standard' ? '' : `; variant ${options.variant}`;
      io.stdout.write(
        `reference provider ${REFERENCE_SLUG} listening on ${provider.url} (auth ${options.authMethod}${variantNote}; faults: ${faults.length ? faults.join(', ') : 'none'}; webhooks: ${options.webhookUrl ? `signed and sent to ${options.webhookUrl}` : 'not sent (no --webhook-url)'})\n`,
      );
      await untilStopped();
      await provider.close();
      io.stdout.write('reference provider stopped\n');
      setExit(EXIT.ok);
    });
}
