import { randomBytes } from 'node:crypto';
import { DEFAULT_CREDENTIAL_ENV, DEFAULT_WEBHOOK_SECRET_ENV } from '../../model/contract-constants.js';
import { UsageError } from '../../model/errors.js';
import { isSlug, SLUG_RULE } from '../../model/slug.js';
import {
  ALL_CAPABILITIES,
  FAULTS,
  type FaultName,
  isFaultName,
  isVariant,
  type ReferenceProviderOptions,
  startReferenceProvider,
  VARIANTS,
} from '../../reference-provider/index.js';
import { didYouMean } from '../../util/did-you-mean.js';
import { type CommandContext, untilAborted } from '../command.js';
import { EXIT } from '../io.js';
import { MOCK_PROVIDER_DEFAULT_PORT, parseAuthFlag, parsePortFlag } from '../options.js';

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
  slug?: string;
  name?: string;
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
  if (!value)
    throw new UsageError(
      `missing ${what}: the environment variable ${name} is not set`,
      `set it, or name another variable with ${flag}`,
    );
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
  const authMethod = parseAuthFlag(flags.auth);
  const port = parsePortFlag('--port', flags.port, MOCK_PROVIDER_DEFAULT_PORT);
  const unknown = flags.fault.filter((f) => !isFaultName(f));
  const names = Object.keys(FAULTS);
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown fault ${unknown.map((f) => `${f}${didYouMean(f, names)}`).join(', ')}`,
      'see provcert mock-provider --list-faults',
    );
  }
  const faults = flags.fault.filter(isFaultName);

  let capabilities: string[] | undefined;
  if (flags.capabilities !== undefined) {
    capabilities = flags.capabilities
      .split(',')
      .map((c) => c.trim().toUpperCase())
      .filter(Boolean);
    const known: readonly string[] = ALL_CAPABILITIES;
    const bad = capabilities.filter((c) => !known.includes(c));
    if (bad.length > 0)
      throw new UsageError(`unknown capability ${bad.join(', ')}; known: ${ALL_CAPABILITIES.join(', ')}`);
  }
  if (flags.webhookUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(flags.webhookUrl)) {
    throw new UsageError(`--webhook-url must be an http(s) URL (found "${flags.webhookUrl}")`);
  }
  const quoteTtlSeconds = positiveNumber(flags.quoteTtl, '--quote-ttl');
  if (flags.slug !== undefined && !isSlug(flags.slug))
    throw new UsageError(`--slug must be ${SLUG_RULE} (found "${flags.slug}")`);
  if (flags.name !== undefined && flags.name.trim() === '') throw new UsageError('--name must not be empty');
  if (!isVariant(flags.variant))
    throw new UsageError(`--variant "${flags.variant}" is not a variant; use ${VARIANTS.join(', ')}`);

  const credential = secretFrom(
    env,
    flags.credentialEnv ?? DEFAULT_CREDENTIAL_ENV,
    'provider credential',
    '--credential-env',
  );
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
    ...(flags.slug !== undefined ? { slug: flags.slug } : {}),
    ...(flags.name !== undefined ? { name: flags.name.trim() } : {}),
  };
}

/**
 * `provcert mock-provider`: the reference provider on a port, until SIGINT/SIGTERM. Secrets come from the
 * environment only and are never printed. `untilStopped` is injectable for tests.
 */
export async function execute({ io, signal }: CommandContext, flags: MockProviderFlags): Promise<number> {
  if (flags.listFaults) {
    io.stdout.write(`${faultListing()}\n`);
    return EXIT.ok;
  }
  const options = mockProviderOptions(flags, io.env);
  const provider = await startReferenceProvider({ ...options, log: (line) => io.stderr.write(`${line}\n`) }).catch(
    (e: unknown) => {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE')
        throw new UsageError(
          `port ${options.port ?? MOCK_PROVIDER_DEFAULT_PORT} on ${options.host ?? '127.0.0.1'} is already in use`,
        );
      if (code === 'EADDRNOTAVAIL')
        throw new UsageError(`cannot listen on ${options.host ?? '127.0.0.1'}: address not available`);
      throw new UsageError(e instanceof Error ? e.message : String(e));
    },
  );
  const faults: readonly FaultName[] = options.faults ?? [];
  const variantNote =
    options.variant === undefined || options.variant === 'standard' ? '' : `; variant ${options.variant}`;
  io.stdout.write(
    `reference provider ${provider.slug} listening on ${provider.url} (auth ${options.authMethod}${variantNote}; faults: ${faults.length ? faults.join(', ') : 'none'}; webhooks: ${options.webhookUrl ? `signed and sent to ${options.webhookUrl}` : 'not sent (no --webhook-url)'})\n`,
  );
  await untilAborted(signal);
  await provider.close();
  io.stdout.write('reference provider stopped\n');
  return EXIT.ok;
}
