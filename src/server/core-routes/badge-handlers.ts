import { CONTRACT_VERSION } from '../../model/contract-constants.js';
import { flatBadge } from '../certificates/badge.js';
import { sendError } from '../http-io.js';
import { isListed } from './certificate-handlers.js';
import type { CoreContext, SlugRequest } from './context.js';
import { mayReadUnlisted } from './guards.js';
import { certificationInvalidity } from './registry.js';

const GREEN = '#4c1';
const GREY = '#9f9f9f';

/**
 * GET /providers/{slug}/badge.svg: certified or not, the contract version and the date of the certification, in the
 * flat badge style; nothing beyond what discovery shows. Public for a listed provider, else like its certificate.
 */
export async function badge(ctx: CoreContext, { req, res, params: { slug } }: SlugRequest): Promise<void> {
  const provider = ctx.registry.get(slug);
  if (!provider || !(isListed(provider) || (await mayReadUnlisted(req, ctx, provider))))
    return sendError(res, 404, 'NOT_FOUND', `no provider "${slug}" is listed`);
  const [latest] = await ctx.registry.certifications(slug);
  const certified =
    latest !== undefined && latest.verdict === 'PASS' && certificationInvalidity(provider, latest) === undefined;
  const svg = flatBadge({
    label: 'provcert',
    message: certified
      ? `certified · contract ${CONTRACT_VERSION} · ${latest.createdAt.slice(0, 10)}`
      : `not certified · contract ${CONTRACT_VERSION}`,
    color: certified ? GREEN : GREY,
  });
  res.writeHead(200, {
    'content-type': 'image/svg+xml; charset=utf-8',
    'content-length': Buffer.byteLength(svg),
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  });
  res.end(svg);
}
