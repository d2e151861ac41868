import { type RawServeOptions, resolveServeSettings } from '../../config/serve.js';
import { createConsole } from '../../console/console.js';
import type { Contract } from '../../contract/contract.js';
import { loadContract } from '../../contract/load.js';
import { type IngestLimits, LIMIT_NAMES } from '../../model/ingest-limits.js';
import { type RunValues, resolveRunConfig } from '../../model/run-values.js';
import type { ServeSettings } from '../../model/serve-settings.js';
import type { ExpectedFailure } from '../../model/waivers.js';
import { runCertification } from '../../runner/run.js';
import type { Certifier } from '../../server/core-routes/deps.js';
import { startServe } from '../../server/serve.js';
import { parseExpectedFailures } from '../../util/expected-failures.js';
import { type CommandContext, untilAborted } from '../command.js';
import { EXIT } from '../io.js';
import { flagOfSetting } from '../setting-flags.js';

/**
 * The certification engine behind POST /providers/{slug}/certify: events arrive at this same server, and the
 * config file's expectedFailures are judged as `run` judges them.
 */
export function engineCertifier(contract: Contract, settings: ServeSettings): Certifier {
  // Checked once, as serve starts: a bad entry is exit 2 before the core listens.
  const expectedFailures: readonly ExpectedFailure[] = parseExpectedFailures(
    settings.expectedFailures,
    'the serve config file',
  );
  return async ({ registration, credential, webhookSecret, inbox, hooks }) => {
    const ref = registration.credential;
    // What serve was told (its flags > its config file) and what the provider registered; the rest are defaults.
    const { config } = resolveRunConfig(
      {
        baseUrl: registration.baseUrl,
        auth: registration.authMethod,
        capabilities: registration.capabilities,
        // As registered, upper-cased by resolveRunConfig; a mode the schema does not name is used as before.
        ...(registration.fulfillment ? { fulfillment: registration.fulfillment as RunValues['fulfillment'] } : {}),
        local: settings.local,
        webhookHost: settings.host,
        webhookPort: settings.port,
        maxExpiryWait: settings.maxExpiryWait,
      },
      {
        credential,
        credentialSource: 'env' in ref ? { kind: 'env', name: ref.env } : { kind: 'file', path: ref.file },
        // The per-provider secret lives in the data dir, not in an env var.
        webhookSecret,
        webhookSecretSource: { kind: 'generated' },
      },
    );
    // The registered slug is the provider's identity: provider-info must answer the same one.
    return runCertification(config, {
      contract,
      credential,
      webhookSecret,
      inbox,
      expectedFailures,
      expectedSlug: registration.slug,
      ...(hooks ? { hooks } : {}),
    });
  };
}

export async function execute(
  { io, signal }: CommandContext,
  flags: RawServeOptions & { spec?: string } & Partial<Record<keyof IngestLimits, string>>,
): Promise<number> {
  const limits: Partial<Record<keyof IngestLimits, string>> = {};
  for (const name of LIMIT_NAMES) if (flags[name] !== undefined) limits[name] = flags[name];
  const settings = await resolveServeSettings({ ...flags, limits }, io.cwd);
  const contract = await loadContract(flags.spec);
  const operatorConsole = createConsole();
  const serve = await startServe(settings, {
    contract,
    certify: engineCertifier(contract, settings),
    env: io.env,
    cwd: io.cwd,
    log: (line) => io.stdout.write(`${new Date().toISOString()} ${line}\n`),
    mount: operatorConsole.routes,
    nameSetting: flagOfSetting,
  });
  operatorConsole.attach(serve, io.env[settings.adminTokenEnv] || undefined);
  io.stdout.write(
    `${[...serve.banner, `  console:        ${serve.core.url}/console (sign in with a token)`].join('\n')}\n`,
  );
  const stoppedBy = await untilAborted(signal);
  io.stdout.write(`${stoppedBy}: shutting down\n`);
  await serve.close();
  return EXIT.ok;
}
