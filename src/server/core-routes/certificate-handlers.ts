import { registeredDigest } from '../certificates/issue.js';
import { sendError, sendJson } from '../http-io.js';
import type { CoreContext, SlugRequest } from './context.js';
import { mayReadUnlisted } from './guards.js';
import { credentialFingerprint, type StoredProvider } from './registry.js';
import { readCredential } from './request-input.js';

/** Listed in discovery: what anyone may see of it (its certificate and badge included). */
export const isListed = (p: StoredProvider): boolean => p.status === 'ACTIVE' && p.reviewStatus === 'ACTIVE';

/**
 * GET /providers/{slug}/certificate: the latest certification's signed certificate (a DSSE envelope), public for a
 * provider discovery lists, else for the operator and the provider's own token; to anyone else the slug is unknown.
 * `x-provcert-configuration-digest` carries the digest of the provider's current configuration (what
 * `provcert verify --config-digest` compares with the certificate's subject).
 */
export async function certificate(ctx: CoreContext, { req, res, params: { slug } }: SlugRequest): Promise<void> {
  const provider = ctx.registry.get(slug);
  if (!provider || !(isListed(provider) || (await mayReadUnlisted(req, ctx, provider))))
    return sendError(res, 404, 'NOT_FOUND', `no provider "${slug}" is listed`);
  const latest = (await ctx.registry.certifications(slug)).find((r) => r.certificate !== undefined);
  if (!latest?.certificate) return sendError(res, 404, 'NOT_FOUND', `${slug} has no certificate yet: certify it first`);
  const headers: Record<string, string> = { 'x-provcert-certification-id': latest.id, 'cache-control': 'no-store' };
  const credential = await readCredential(provider, ctx.env, ctx.credentialDir);
  if (credential.ok)
    headers['x-provcert-configuration-digest'] = registeredDigest(
      provider,
      credentialFingerprint(provider, credential.credential),
    );
  sendJson(res, 200, latest.certificate, headers);
}
