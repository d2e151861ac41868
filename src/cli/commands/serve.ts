import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import type { RunConfig } from '../../model/run-config.js';
import { runCertification } from '../../runner/run.js';
import type { Certifier } from '../../server/admin/routes.js';
import { DEFAULT_LIMITS, LIMIT_NAMES, type IngestLimits } from '../../server/limits.js';
import { limitFlag, resolveServeSettings, type RawServeOptions, type ServeSettings } from '../../server/serve-config.js';
import { startServe } from '../../server/serve.js';
import type { Contract } from '../../spec/contract.js';
import { loadContract } from '../../spec/load.js';
import { EXIT, type CliIo } from '../io.js';
import type { SetExit } from '../program.js';

/** The certification engine behind POST /providers/{slug}/certify: events arrive at this same server. */
export function engineCertifier(contract: Contract, settings: ServeSettings): Certifier {
  return async ({ registration, credential, webhookSecret, inbox }) => {
    const ref = registration.credential;
    const config: RunConfig = {
      baseUrl: registration.baseUrl,
      authMethod: registration.authMethod,
      credentialSource: 'env' in ref ? { kind: 'env', name: ref.env } : { kind: 'file', path: ref.file },
      capabilities: registration.capabilities,
      ...(registration.fulfillment ? { fulfillment: registration.fulfillment } : {}),
      local: settings.local,
      webhookHost: settings.host,
      webhookPort: settings.port,
      // The per-provider secret lives in the data dir, not in an env var.
      webhookSecretSource: { kind: 'generated' },
      webhookTimeoutMs: 30_000,
      timeoutMs: 10_000,
      maxExpiryWaitS: 120,
      seed: randomBytes(4).toString('hex'),
      maxBodyBytes: 5 * 1024 * 1024,
      concurrency: 8,
    };
    return runCertification(config, { contract, credential, webhookSecret, inbox });
  };
}

/** Resolves on the first SIGINT or SIGTERM. */
function untilStopped(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string): void => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(signal);
    };
    const onInt = (): void => stop('SIGINT');
    const onTerm = (): void => stop('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
  });
}

export function registerServe(program: Command, io: CliIo, setExit: SetExit): void {
  const command = program
    .command('serve')
    .description('run the core server: ingest signed provider webhooks, register and certify providers')
    .option('--port <n>', 'port to listen on (default 8787; 0 = any free port)')
    .option('--host <host>', 'address to listen on (default 127.0.0.1)')
    .option('--data-dir <dir>', 'where events, registrations and certifications are kept (default ./.provcert)')
    .option('--config <file>', 'YAML/JSON settings: port, host, dataDir, local, webhookSecretEnv, adminTokenEnv, credentialDir, the limits below by name (maxBodyBytes, …), providers[{slug, webhookSecretEnv}]')
    .option('--slug <slugs>', 'accept webhooks for these provider slugs with the server webhook secret (comma-separated)')
    .option('--webhook-secret-env <name>', 'environment variable with the server webhook secret (default SERVICE_WEBHOOK_SECRET; generated once when unset)')
    .option('--local', 'allow http:// and loopback/private provider base addresses in registrations')
    .option('--credential-dir <dir>', 'registrations\' credentialFile references are read from this directory only (default <data-dir>/credentials)')
    .option('--spec <path>', 'use this OpenAPI document instead of the bundled contract');
  for (const name of LIMIT_NAMES) command.option(`${limitFlag(name)} <n>`, `limit: ${name} (default ${DEFAULT_LIMITS[name]})`);
  command.action(async (flags: RawServeOptions & { spec?: string } & Partial<Record<keyof IngestLimits, string>>) => {
    const limits: Partial<Record<keyof IngestLimits, string>> = {};
    for (const name of LIMIT_NAMES) if (flags[name] !== undefined) limits[name] = flags[name];
    const settings = await resolveServeSettings({ ...flags, limits }, io.cwd);
    const contract = await loadContract(flags.spec);
    const serve = await startServe(settings, {
      contract,
      certify: engineCertifier(contract, settings),
      env: io.env,
      cwd: io.cwd,
      log: (line) => io.stdout.write(`${new Date().toISOString()} ${line}\n`),
    });
    io.stdout.write(serve.banner.join('\n') + '\n');
    const signal = await untilStopped();
    io.stdout.write(`${signal}: shutting down\n`);
    await serve.close();
    setExit(EXIT.ok);
  });
}
