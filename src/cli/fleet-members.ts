import type { FleetFile, FleetProviderEntry } from '../config/fleet.js';
import type { FleetMember } from '../fleet/run-fleet.js';
import { DEFAULT_WEBHOOK_SECRET_ENV } from '../model/contract-constants.js';
import { UsageError } from '../model/errors.js';
import { resolveRunOptions } from './run-options.js';

/**
 * One fleet entry → a member ready to certify, or the reason it cannot be. A credential or webhook secret that is
 * not set is that provider's error, never the batch's: the other providers are still certified. (The file's
 * structure was validated before; what is left to fail here is reading secrets.)
 */
export function resolveMember(
  entry: FleetProviderEntry,
  fleet: Pick<FleetFile, 'webhookHost' | 'webhookPort'>,
  env: NodeJS.ProcessEnv,
  cwd: string,
): FleetMember {
  const baseUrl = entry.options.baseUrl ?? '';
  try {
    const resolved = resolveRunOptions(
      { ...entry.options, webhookHost: fleet.webhookHost, webhookPort: fleet.webhookPort },
      env,
      cwd,
    );
    if (resolved.generatedSecret) {
      // A generated secret cannot reach a provider that signs on its own: every event would fail verification.
      const name = entry.options.webhookSecretEnv ?? DEFAULT_WEBHOOK_SECRET_ENV;
      const named = entry.webhookSecretNamed ? 'its webhookSecretEnv' : 'the default webhook secret variable';
      return { slug: entry.slug, baseUrl, error: `missing webhook secret: ${name} (${named}) is not set` };
    }
    return {
      slug: entry.slug,
      baseUrl: resolved.config.baseUrl,
      run: { config: resolved.config, credential: resolved.credential, webhookSecret: resolved.webhookSecret },
    };
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return { slug: entry.slug, baseUrl, error: e.message };
  }
}
