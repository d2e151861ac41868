import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendError, sendJson } from '../../src/server/http-io.js';
import { type Route, RouteTable, route } from '../../src/server/route-table.js';
import { send } from './support/raw-request.js';

/** Lets the request through with `x-key: k` (granting the key it read), else answers 401 itself. */
const keyed = (req: IncomingMessage, res: ServerResponse): { key: string } | undefined => {
  if (req.headers['x-key'] === 'k') return { key: 'k' };
  sendError(res, 401, 'UNAUTHORIZED', 'no key', true);
  return undefined;
};

const table = new RouteTable([
  route('GET', '/items/:itemId', ({ res, params, query }) =>
    sendJson(res, 200, { route: 'item', params, q: query().get('q') }),
  ),
  // Unreachable: the line above matches first (the first matching line wins).
  route('GET', '/items/special', ({ res }) => sendJson(res, 200, { route: 'special' })),
  route('POST', '/items/:itemId/notes/:noteId', ({ res, params, path }) =>
    sendJson(res, 200, { route: 'note', params, path }),
  ),
  route('GET', '/locked', ({ res, granted }) => sendJson(res, 200, { route: 'locked', key: granted.key }), {
    guard: keyed,
  }),
  route('POST', '/post-only', ({ res }) => sendJson(res, 200, { route: 'post-only' }), {
    wrongMethod: (method, path) => `${method} on ${path}: use POST`,
  }),
]);

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => void table.dispatch(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

interface Want {
  status: number;
  json: unknown;
  /** The answer closes the connection (every refusal of the table does). */
  closes?: true;
}
const refused = (status: number, code: string, message: string): Want => ({
  status,
  json: { code, message },
  closes: true,
});
const item = (itemId: string, q: string | null = null): Want => ({
  status: 200,
  json: { route: 'item', params: { itemId }, q },
});

const cases: { name: string; method: string; path: string; headers?: Record<string, string>; want: Want }[] = [
  { name: 'a parameter, percent-decoded', method: 'GET', path: '/items/a%20b', want: item('a b') },
  { name: 'one trailing slash', method: 'GET', path: '/items/a/', want: item('a') },
  { name: 'the query is not part of the path', method: 'GET', path: '/items/a?q=x%2Fy', want: item('a', 'x/y') },
  {
    name: 'two parameters, the path as sent',
    method: 'POST',
    path: '/items/a/notes/7/?x=1',
    want: { status: 200, json: { route: 'note', params: { itemId: 'a', noteId: '7' }, path: '/items/a/notes/7/' } },
  },
  { name: 'the first matching line wins', method: 'GET', path: '/items/special', want: item('special') },
  { name: 'an unknown path', method: 'GET', path: '/nope', want: refused(404, 'NOT_FOUND', 'no route GET /nope') },
  {
    name: 'a path that does not start with /',
    method: 'GET',
    path: '*',
    want: refused(404, 'NOT_FOUND', 'no route GET *'),
  },
  {
    name: 'two trailing slashes',
    method: 'GET',
    path: '/items/a//',
    want: refused(404, 'NOT_FOUND', 'no route GET /items/a//'),
  },
  {
    name: 'an empty parameter',
    method: 'POST',
    path: '/items//notes/7',
    want: refused(404, 'NOT_FOUND', 'no route POST /items//notes/7'),
  },
  {
    name: 'dot segments are not resolved',
    method: 'GET',
    path: '/items/x/../y',
    want: refused(404, 'NOT_FOUND', 'no route GET /items/x/../y'),
  },
  {
    name: 'literal segments are case-sensitive',
    method: 'GET',
    path: '/ITEMS/a',
    want: refused(404, 'NOT_FOUND', 'no route GET /ITEMS/a'),
  },
  {
    name: 'another method on a known path',
    method: 'POST',
    path: '/items/a',
    want: refused(405, 'NOT_FOUND', 'no route POST /items/a'),
  },
  {
    name: "a route's own 405 message",
    method: 'GET',
    path: '/post-only/',
    want: refused(405, 'NOT_FOUND', 'GET on /post-only/: use POST'),
  },
  {
    name: 'a parameter that is not percent-encoding',
    method: 'GET',
    path: '/items/%zz',
    want: refused(400, 'INVALID_ARGUMENT', 'the item id in the path is not valid percent-encoding'),
  },
  { name: 'the guard answers first', method: 'GET', path: '/locked', want: refused(401, 'UNAUTHORIZED', 'no key') },
  {
    name: 'the guard runs before the method is checked',
    method: 'POST',
    path: '/locked',
    want: refused(401, 'UNAUTHORIZED', 'no key'),
  },
  {
    name: 'past the guard, another method is 405',
    method: 'POST',
    path: '/locked',
    headers: { 'x-key': 'k' },
    want: refused(405, 'NOT_FOUND', 'no route POST /locked'),
  },
  {
    name: 'past the guard, the handler',
    method: 'GET',
    path: '/locked',
    headers: { 'x-key': 'k' },
    want: { status: 200, json: { route: 'locked', key: 'k' } },
  },
];

describe('route table', () => {
  it.each(cases)('$name: $method $path → $want.status', async (c) => {
    const answer = await send(base, c.method, c.path, c.headers ? { headers: c.headers } : {});
    expect({ status: answer.status, json: answer.json }).toEqual({ status: c.want.status, json: c.want.json });
    expect(answer.headers['connection']).toBe(c.want.closes ? 'close' : 'keep-alive');
  });

  it('lists its routes in table order', () => {
    expect(table.routes.map((r) => `${r.method} ${r.pattern}`)).toEqual([
      'GET /items/:itemId',
      'GET /items/special',
      'POST /items/:itemId/notes/:noteId',
      'GET /locked',
      'POST /post-only',
    ]);
  });

  const noop = (): void => undefined;
  it.each([
    [
      'the same method and path twice',
      [route('GET', '/a/:x', noop), route('GET', '/a/:y', noop)],
      /GET \/a\/:y is in the table twice/,
    ],
    ['a pattern without a leading slash', [route('GET', 'a', noop)], /GET a: the pattern must start with \//],
    ['an empty segment', [route('GET', '/a//b', noop)], /GET \/a\/\/b: empty path segment/],
    ['a parameter without a name', [route('GET', '/a/:', noop)], /parameter ":" must be a name/],
    ['a parameter named twice', [route('GET', '/a/:x/:x', noop)], /parameter ":x" appears twice/],
  ] satisfies [string, Route[], RegExp][])('refuses %s when it is built', (_name, routes, message) => {
    expect(() => new RouteTable(routes)).toThrow(message);
  });
});
