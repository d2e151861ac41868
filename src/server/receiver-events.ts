import type { IncomingMessage, ServerResponse } from 'node:http';
import { SIGNATURE_HEADER } from '../model/contract-constants.js';
import type { Redactor } from '../util/redact.js';
import type { FollowSource } from './event-follow.js';
import { answerEvents } from './event-listing.js';
import { sendError } from './http-io.js';
import { type Route, route } from './route-table.js';
import { digestMatches, signatureDigest } from './signature.js';

export interface ReceiverEventsOptions {
  /** The one slug listed: the run's provider (undefined until the run has read it: every slug is then unknown). */
  slug(): string | undefined;
  /** The webhook secret the provider signs with; a reader proves it knows it by signing its GET. */
  webhookSecret: string;
  /** Masks every secret the run knows in the answer. */
  redactor: Redactor;
  /** The receiver's webhook store (undefined until it listens). */
  source(): FollowSource | undefined;
}

const EMPTY = Buffer.alloc(0);

/**
 * GET /api/v1/providers/{slug}/events on a run's own receiver: `provcert events --follow --secret-env` tails the
 * webhooks a provider sends to a running `provcert run`. The caller signs the GET as the contract signs one on
 * provider routes (x-service-signature: hex HMAC-SHA256 of the empty body under the webhook secret, either case),
 * so the secret itself never travels; anything else is 401 before the slug is looked at.
 */
export function receiverEventsRoute(options: ReceiverEventsOptions): Route {
  const expected = signatureDigest(options.webhookSecret, EMPTY);
  const guard = (req: IncomingMessage, res: ServerResponse): true | undefined => {
    const raw = req.headers[SIGNATURE_HEADER];
    const received = Array.isArray(raw) ? raw[0] : raw;
    if (received !== undefined && digestMatches(expected, received)) return true;
    sendError(
      res,
      401,
      'UNAUTHORIZED',
      received === undefined
        ? `sign the request: ${SIGNATURE_HEADER} = hex HMAC-SHA256 of the empty body under the webhook secret`
        : `${SIGNATURE_HEADER} is not the webhook secret's signature of the empty body`,
      true,
    );
    return undefined;
  };
  return route(
    'GET',
    '/api/v1/providers/:slug/events',
    async ({ res, params: { slug }, query }) => {
      const own = options.slug();
      if (slug !== own)
        return sendError(
          res,
          404,
          'NOT_FOUND',
          own === undefined
            ? `no provider "${slug}": the run has not read its provider's slug yet`
            : `no provider "${slug}": this run's receiver lists the events of ${own} only`,
        );
      await answerEvents(options.source(), slug, query(), res, options.redactor);
    },
    { guard, wrongMethod: (method) => `${method} is not supported on the events listing; use GET` },
  );
}
