import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './http-io.js';

export type HttpMethod = 'GET' | 'POST';

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The named parameters of a path pattern: `/providers/:slug/certifications/:id` → `{ slug, id }`. */
export type PathParams<P extends string> = { readonly [K in ParamNames<P>]: string };

/**
 * What a handler gets: the exchange, the percent-decoded path parameters, the path as sent, and what the
 * route's guard learned about the caller (`granted`: the provider a token names, …; undefined without a guard).
 */
export interface RouteRequest<Params, Granted = undefined> {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly params: Params;
  readonly granted: Granted;
  /** The request path as sent, without the query string. */
  readonly path: string;
  /** The query string's parameters (parsed when asked: the webhook route never needs them). */
  query(): URLSearchParams;
}

export type RouteHandler<Params, Granted = undefined> = (
  request: RouteRequest<Params, Granted>,
) => Promise<void> | void;

/**
 * Runs once the path matched, before the method is checked, so a refused caller learns nothing about the
 * methods. Returns what it learned about the caller (handed to the handler as `granted`), or undefined when
 * it has answered the request itself (e.g. 401).
 */
export type Guard<Granted> = (
  req: IncomingMessage,
  res: ServerResponse,
) => Granted | undefined | Promise<Granted | undefined>;

export interface RouteOptions<Granted = unknown> {
  guard?: Guard<Granted>;
  /** The message of the 405 answer to another method on this path; default `no route METHOD PATH`. */
  wrongMethod?: (method: string, path: string) => string;
}

/** One line of a route table: method + path pattern → handler. */
export interface Route {
  readonly method: HttpMethod;
  /** Literal segments and `:name` parameters, e.g. `/api/v1/providers/:slug/events`. */
  readonly pattern: string;
  readonly handler: RouteHandler<Readonly<Record<string, string>>, unknown>;
  readonly options: RouteOptions;
}

/**
 * A table line; the handler's `params` are typed from the pattern's `:names`, its `granted` from the guard's
 * answer (a line without a guard grants nothing).
 */
export function route<P extends string>(
  method: HttpMethod,
  pattern: P,
  handler: RouteHandler<PathParams<P>>,
  options?: RouteOptions<never> & { guard?: undefined },
): Route;
export function route<P extends string, G>(
  method: HttpMethod,
  pattern: P,
  handler: RouteHandler<PathParams<P>, G>,
  options: RouteOptions<G> & { guard: Guard<G> },
): Route;
export function route<P extends string, G>(
  method: HttpMethod,
  pattern: P,
  handler: RouteHandler<PathParams<P>, G>,
  options: RouteOptions<G> = {},
): Route {
  // The matcher fills `params` with exactly the pattern's names and `granted` with the guard's answer, so the
  // handler's narrower types hold.
  return {
    method,
    pattern,
    handler: handler as RouteHandler<Readonly<Record<string, string>>, unknown>,
    options: options as RouteOptions,
  };
}

type Segment = { literal: string } | { param: string };

interface CompiledRoute {
  route: Route;
  segments: Segment[];
}

const PARAM_NAME = /^[A-Za-z][A-Za-z0-9]*$/;

function compile(r: Route): CompiledRoute {
  const refuse = (why: string): Error => new Error(`route ${r.method} ${r.pattern}: ${why}`);
  if (!r.pattern.startsWith('/')) throw refuse('the pattern must start with /');
  const names = new Set<string>();
  const segments = r.pattern
    .slice(1)
    .split('/')
    .map((s): Segment => {
      if (s === '') throw refuse('empty path segment');
      if (!s.startsWith(':')) return { literal: s };
      const param = s.slice(1);
      if (!PARAM_NAME.test(param)) throw refuse(`parameter ":${param}" must be a name (letters and digits)`);
      if (names.has(param)) throw refuse(`parameter ":${param}" appears twice`);
      names.add(param);
      return { param };
    });
  return { route: r, segments };
}

/** Whether `parts` (from index 1: parts[0] is what precedes the leading slash) fit the pattern. */
function matchSegments(segments: Segment[], parts: string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as Segment;
    const part = parts[i + 1] as string;
    if ('literal' in segment ? part !== segment.literal : part === '') return false;
  }
  return true;
}

/** `providerSlug` → `provider slug`, for messages. */
const words = (name: string): string => name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);

/**
 * A route table: each request is matched by path segments (literal or `:name`, one optional trailing
 * slash), the first matching line wins. A known path with another method answers 405, an unknown path
 * 404, and a parameter that is not valid percent-encoding 400, each as `{ code, message }` with the
 * connection closed. The path is matched as sent: dot segments are not resolved.
 */
export class RouteTable {
  private readonly bySegmentCount = new Map<number, CompiledRoute[]>();
  readonly routes: readonly Pick<Route, 'method' | 'pattern'>[];

  constructor(routes: readonly Route[]) {
    const seen = new Set<string>();
    for (const r of routes) {
      const key = `${r.method} ${r.pattern.replace(/:[^/]+/g, ':')}`;
      if (seen.has(key)) throw new Error(`route ${r.method} ${r.pattern} is in the table twice`);
      seen.add(key);
      const compiled = compile(r);
      const list = this.bySegmentCount.get(compiled.segments.length) ?? [];
      list.push(compiled);
      this.bySegmentCount.set(compiled.segments.length, list);
    }
    this.routes = routes.map(({ method, pattern }) => ({ method, pattern }));
  }

  /** Answer one request: through its handler, or with the table's 404/405/400. */
  async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = req.url ?? '/';
    const queryAt = raw.indexOf('?');
    const path = queryAt === -1 ? raw : raw.slice(0, queryAt);
    const method = req.method ?? '';
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const parts = trimmed.split('/');
    // parts[0] is what precedes the leading slash: '' for every path a route can match.
    if (parts[0] !== '') return sendError(res, 404, 'NOT_FOUND', `no route ${method} ${path}`, true);

    let found: CompiledRoute | undefined;
    let samePath: Route | undefined;
    for (const candidate of this.bySegmentCount.get(parts.length - 1) ?? []) {
      if (!matchSegments(candidate.segments, parts)) continue;
      if (candidate.route.method === method) {
        found = candidate;
        break;
      }
      samePath ??= candidate.route;
    }
    const matched = found?.route ?? samePath;
    if (!matched) return sendError(res, 404, 'NOT_FOUND', `no route ${method} ${path}`, true);
    const granted = matched.options.guard ? await matched.options.guard(req, res) : undefined;
    if (matched.options.guard && granted === undefined) return;
    if (!found) {
      const message = matched.options.wrongMethod?.(method, path) ?? `no route ${method} ${path}`;
      return sendError(res, 405, 'NOT_FOUND', message, true);
    }

    const params: Record<string, string> = {};
    for (let i = 0; i < found.segments.length; i++) {
      const segment = found.segments[i] as Segment;
      if ('literal' in segment) continue;
      const name = segment.param;
      const value = parts[i + 1] as string;
      try {
        params[name] = value.includes('%') ? decodeURIComponent(value) : value;
      } catch {
        return sendError(
          res,
          400,
          'INVALID_ARGUMENT',
          `the ${words(name)} in the path is not valid percent-encoding`,
          true,
        );
      }
    }
    const query = (): URLSearchParams => new URLSearchParams(queryAt === -1 ? '' : raw.slice(queryAt + 1));
    await found.route.handler({ req, res, params, path, query, granted });
  }
}
