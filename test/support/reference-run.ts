import { join } from 'node:path';
import {
  REFERENCE_SLUG,
  type ReferenceProviderOptions,
  type RunningProvider,
  startReferenceProvider,
} from '../../src/reference-provider/index.js';
import { freePort } from './ports.js';
import { scratchDir } from './scratch.js';

/**
 * The reference provider as a certification run on loopback meets it: its events go to `webhookPort` (free a
 * moment ago, for the run's own receiver), its data to a scratch folder, its quotes last 5 s (API_KEY unless
 * `options` say otherwise). The caller closes it.
 */
export async function startReferenceForRun(
  options: Partial<ReferenceProviderOptions> & Pick<ReferenceProviderOptions, 'credential' | 'webhookSecret'>,
): Promise<{ provider: RunningProvider; webhookPort: number }> {
  const webhookPort = await freePort();
  const provider = await startReferenceProvider({
    authMethod: 'API_KEY',
    webhookUrl: `http://127.0.0.1:${webhookPort}/api/v1/webhooks/${REFERENCE_SLUG}`,
    dataFile: join(await scratchDir('reference-run'), 'data.json'),
    quoteTtlSeconds: 5,
    ...options,
  });
  return { provider, webhookPort };
}
