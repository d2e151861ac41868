import { join } from 'node:path';
import {
  REFERENCE_SLUG,
  type ReferenceProviderOptions,
  type RunningProvider,
  startReferenceProvider,
} from '../../src/reference-provider/index.js';
import { reservePorts } from './ports.js';
import { scratchDir } from './scratch.js';

/**
 * The reference provider as a certification run on loopback meets it: its events go to `webhookPort` (free a
 * moment ago, for the run's own receiver), its data to a scratch folder, its quotes last 5 s (API_KEY unless
 * `options` say otherwise). The caller closes it.
 */
export async function startReferenceForRun(
  options: Partial<ReferenceProviderOptions> & Pick<ReferenceProviderOptions, 'credential' | 'webhookSecret'>,
): Promise<{ provider: RunningProvider; webhookPort: number }> {
  // Held while the provider starts on port 0, which could otherwise be given the run's port.
  const reserved = await reservePorts(1);
  const webhookPort = reserved.ports[0] ?? 0;
  try {
    const provider = await startReferenceProvider({
      authMethod: 'API_KEY',
      webhookUrl: `http://127.0.0.1:${webhookPort}/api/v1/webhooks/${REFERENCE_SLUG}`,
      dataFile: join(await scratchDir('reference-run'), 'data.json'),
      quoteTtlSeconds: 5,
      ...options,
    });
    return { provider, webhookPort };
  } finally {
    await reserved.release();
  }
}
