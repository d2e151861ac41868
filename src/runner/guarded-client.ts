import type { HttpOutcome, ProviderClient, ProviderRequest } from '../http/types.js';

/**
 * DECISIONS.md, Safety: without `safeTestEnvironment === true` no POST request is sent at all. Checks
 * skip on their own; this guard makes the guarantee hold even if one forgets.
 */
export function guardPosts(
  client: ProviderClient,
  isSafe: () => boolean,
): ProviderClient & { readonly postsSent: number } {
  let postsSent = 0;
  return {
    options: client.options,
    get postsSent() {
      return postsSent;
    },
    async send(request: ProviderRequest): Promise<HttpOutcome> {
      if (request.method === 'POST') {
        if (!isSafe()) {
          const message = `not sent: POST ${request.path} would create test orders, and manifest.certification.safeTestEnvironment is not true`;
          return {
            kind: 'failure',
            failure: 'blocked',
            message,
            durationMs: 0,
            exchange: {
              request: { method: 'POST', url: client.options.baseUrl + request.path, headers: {} },
              failure: message,
              durationMs: 0,
            },
          };
        }
        postsSent++;
      }
      return client.send(request);
    },
  };
}
