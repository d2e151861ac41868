import { matchRoute } from './router.js';

/**
 * The fault other-method-served (a hole the mutation bench found in router.ts): a listed path is served by its route
 * whatever the method, so POST /catalog answers the catalog. The method the router is asked with instead.
 */
const served = (method: string, pathname: string): boolean => {
  const match = matchRoute(method, pathname);
  return 'handler' in match && match.handler !== undefined;
};

export function servedMethod(method: string, pathname: string): string {
  if (served(method, pathname)) return method;
  const other = method === 'GET' ? 'POST' : 'GET';
  return served(other, pathname) ? other : method;
}
