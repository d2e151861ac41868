import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FleetReport } from '../../src/model/fleet-report.js';
import type { FaultName, RunningProvider } from '../../src/reference-provider/index.js';
import { startReferenceProvider } from '../../src/reference-provider/index.js';
import { reservePorts } from '../support/ports.js';
import { scratchDir } from '../support/scratch.js';

export interface FleetProviderSpec {
  slug: string;
  faults?: FaultName[];
  /** Sign events with another provider's secret (its slug), as a misconfigured provider would. */
  signsWithSecretOf?: string;
}

export interface TestFleet {
  dir: string;
  port: number;
  providers: Map<string, RunningProvider>;
  /** The environment batch reads: <SLUG>_KEY and <SLUG>_WEBHOOK_SECRET for each provider. */
  env: Record<string, string>;
  /** Every credential and webhook secret, to prove none leaks into a report. */
  secrets: string[];
  close(): Promise<void>;
}

export const envPrefix = (slug: string): string => slug.toUpperCase().replace(/-/g, '_');

/**
 * Reference providers started in this process, each under its own slug with its own credential and webhook
 * secret, posting to one receiver port that the fleet file names (the batch starts the receiver there).
 */
export async function startTestFleet(specs: readonly FleetProviderSpec[]): Promise<TestFleet> {
  const dir = await scratchDir('fleet-e2e');
  // Held while the providers start on port 0, which could otherwise be given the receiver's port.
  const reserved = await reservePorts(1);
  const port = reserved.ports[0] ?? 0;
  const env: Record<string, string> = { PATH: process.env['PATH'] ?? '' };
  const secretOf = new Map(specs.map((s) => [s.slug, randomBytes(24).toString('hex')]));
  const providers = new Map<string, RunningProvider>();
  const secrets: string[] = [];
  try {
    for (const spec of specs) {
      const credential = randomBytes(16).toString('hex');
      const ownSecret = secretOf.get(spec.slug) ?? '';
      env[`${envPrefix(spec.slug)}_KEY`] = credential;
      env[`${envPrefix(spec.slug)}_WEBHOOK_SECRET`] = ownSecret;
      secrets.push(credential, ownSecret);
      const provider = await startReferenceProvider({
        slug: spec.slug,
        authMethod: 'API_KEY',
        credential,
        webhookSecret: spec.signsWithSecretOf ? (secretOf.get(spec.signsWithSecretOf) ?? '') : ownSecret,
        webhookUrl: `http://127.0.0.1:${port}/api/v1/webhooks/${spec.slug}`,
        faults: spec.faults ?? [],
        quoteTtlSeconds: 5, // the shortest validity the contract allows
        dataFile: join(dir, `${spec.slug}.json`),
      });
      providers.set(spec.slug, provider);
    }
  } finally {
    await reserved.release();
  }
  return {
    dir,
    port,
    providers,
    env,
    secrets,
    close: async () => {
      await Promise.all([...providers.values()].map((p) => p.close()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A fleet file for the running providers (plus any extra YAML lines), written into the fleet's folder. */
export async function writeFleetFile(
  fleet: TestFleet,
  options: { name?: string; extraProviders?: string; defaults?: string; tail?: string; file?: string } = {},
): Promise<string> {
  const entries = [...fleet.providers.entries()].map(
    ([slug, p]) =>
      `  - slug: ${slug}\n    baseUrl: ${p.url}\n    credentialEnv: ${envPrefix(slug)}_KEY\n` +
      `    webhookSecretEnv: ${envPrefix(slug)}_WEBHOOK_SECRET\n`,
  );
  // webhookTimeout ends when the events arrive (milliseconds); long so a loaded machine's stall cannot outlast it.
  const text =
    `name: ${options.name ?? 'food-partners'}\nwebhookPort: ${fleet.port}\n` +
    `defaults: { auth: API_KEY, local: true, webhookTimeout: 10000, maxExpiryWait: 10${options.defaults ?? ''} }\n` +
    `providers:\n${entries.join('')}${options.extraProviders ?? ''}${options.tail ?? ''}`;
  const file = options.file ?? 'fleet.yaml';
  await writeFile(join(fleet.dir, file), text);
  return file;
}

export async function readFleetJson(dir: string, out: string): Promise<FleetReport> {
  return JSON.parse(await readFile(join(dir, out, 'fleet.json'), 'utf8')) as FleetReport;
}
