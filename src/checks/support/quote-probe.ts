import { PrerequisiteError } from '../framework/resources.js';
import type { CheckContext } from '../framework/types.js';
import { inferProfile } from './profile.js';

/**
 * The body of a POST /quote that authentication probes send, or undefined when no POST may be sent:
 * only to a TRANSACTIONAL provider whose manifest declares a safe test environment (DECISIONS.md,
 * Safety). The body is the run's real selection when it is available, so a provider that validates
 * before it authenticates is still caught; a broken metadata or catalog only means fewer probes.
 */
export async function quoteProbeBody(ctx: CheckContext): Promise<Record<string, unknown> | undefined> {
  try {
    const info = await ctx.resources.providerInfo();
    if (info.manifest?.certification?.safeTestEnvironment !== true) return undefined;
    if (inferProfile(ctx.config.profile, new Set(info.capabilities)) !== 'TRANSACTIONAL') return undefined;
    try {
      const selection = await ctx.resources.selection();
      return {
        providerSlug: info.slug,
        ...(selection.locationId ? { locationId: selection.locationId } : {}),
        items: selection.items,
      };
    } catch (error) {
      if (!(error instanceof PrerequisiteError)) throw error;
      return { providerSlug: info.slug, items: [] };
    }
  } catch (error) {
    if (error instanceof PrerequisiteError) return undefined;
    throw error;
  }
}

export const POST_NOT_PROBED =
  'POST /quote was not probed: it is sent only to a TRANSACTIONAL provider whose manifest declares a safe test environment';
