import type { OperationInfo } from '../../../contract/types.js';
import { isProviderRoute } from './provider-routes.js';

/** One request to a listed path with a method the route table does not list for it. */
export interface OtherMethod {
  /** "POST /catalog (the route table lists GET /catalog)", for messages. */
  what: string;
  method: 'GET' | 'POST';
  /** The path sent ({id} replaced by an id nothing has). */
  path: string;
  /** The listed operations of that path, for messages ("GET /catalog"). */
  listed: string[];
}

/**
 * The capabilities whose routes the route table lists with POST (QUOTE, ACTION_CREATE, ACTION_CANCEL): a provider
 * declaring none of them is sent no POST. Pure.
 */
export const postingCapabilities = (operations: readonly OperationInfo[]): Set<string> =>
  new Set(
    operations.flatMap((op) => (op.method === 'POST' && isProviderRoute(op) && op.capability ? [op.capability] : [])),
  );

/**
 * The other-method probe table: each path of the provider's route table called with the method it is not listed with. The
 * route table lists each endpoint as a method and a path, so another method is an endpoint that does not exist:
 * "| 404 | NOT_FOUND | endpoint or id does not exist" (405 Method Not Allowed, HTTP's own answer, is a warning; a 2xx
 * served it). Only GET and POST are sent, the contract's two methods: a router that ignores the method shows on them,
 * and no other method is sent to a provider. POST rows only where POST requests may be sent (`post`); a path id is one
 * nothing has, so a provider that ignores the method acts on nothing. Pure.
 */
export function otherMethods(operations: readonly OperationInfo[], seed: string, post: boolean): OtherMethod[] {
  const byPath = new Map<string, string[]>();
  for (const op of operations) {
    if (!isProviderRoute(op) || (op.method !== 'GET' && op.method !== 'POST')) continue;
    byPath.set(op.path, [...(byPath.get(op.path) ?? []), op.method]);
  }
  const rows: OtherMethod[] = [];
  for (const [path, methods] of byPath) {
    const sent = path.replaceAll(/\{[^}]+\}/g, `provcert-unknown-${seed}`);
    const listed = methods.map((m) => `${m} ${path}`);
    for (const method of ['GET', 'POST'] as const) {
      if (methods.includes(method) || (method === 'POST' && !post)) continue;
      rows.push({ what: `${method} ${sent} (the route table lists ${listed.join(', ')})`, method, path: sent, listed });
    }
  }
  return rows;
}
