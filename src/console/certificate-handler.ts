import type { RouteRequest } from '../server/route-table.js';
import { API, apiError } from './api.js';
import { type ConsoleContext, expired, notFound, readToken } from './context.js';
import type { Viewer } from './guards.js';

/**
 * GET /console/providers/{slug}/certificate: the latest certificate (the DSSE envelope the API serves) as a file
 * download, for whoever may see the provider; `provcert verify` checks it.
 */
export async function certificateDownload(
  ctx: ConsoleContext,
  r: RouteRequest<{ slug: string }, Viewer>,
): Promise<void> {
  const { session, slug } = r.granted;
  const answer = await ctx.api.call(readToken(ctx, session), 'GET', API.certificate(slug));
  if (answer.status === 401) return expired(ctx, r.res, session);
  if (answer.status !== 200) return notFound(r.res, session, `No certificate of ${slug}: ${apiError(answer)}`);
  r.res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-disposition': `attachment; filename="${slug}-certificate.json"`,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  r.res.end(`${JSON.stringify(answer.body, null, 2)}\n`);
}
