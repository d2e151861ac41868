import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../../src/http/body.js';
import { createProviderClient } from '../../src/http/client.js';
import { runCertification } from '../../src/runner/run.js';
import { Redactor } from '../../src/util/redact.js';
import { testConfig } from '../support/certify.js';

const nested = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);
const DEEP = `{"slug":${nested(5_000)}}`;
/** 20 MB of zeros: a few KB on the wire. */
const BOMB = gzipSync(Buffer.alloc(20 * 1024 * 1024));
const JSON_BODY = Buffer.from('{"ok":true}');
let acceptEncoding: string | undefined;

const routes: Record<string, (res: ServerResponse) => void> = {
  '/deep': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(DEEP),
  '/provider-info': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(DEEP),
  '/deep-inside-a-string': (res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: nested(5_000) })),
  '/gzip-bomb': (res) =>
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(BOMB),
  '/deflate': (res) =>
    res
      .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' })
      .end(deflateSync(JSON_BODY)),
  '/br': (res) =>
    res
      .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' })
      .end(brotliCompressSync(JSON_BODY)),
  '/identity': (res) =>
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'identity' }).end(JSON_BODY),
};

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    acceptEncoding = req.headers['accept-encoding'];
    (routes[(req.url ?? '').split('?')[0] ?? ''] ?? ((r: ServerResponse) => r.writeHead(404).end()))(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function get(path: string) {
  const client = createProviderClient(
    { baseUrl, authMethod: 'API_KEY', credential: 'body-limits-key', timeoutMs: 5_000, maxBodyBytes: 1024 * 1024 },
    { redactor: new Redactor(['body-limits-key']) },
  );
  try {
    return await client.send({ method: 'GET', path });
  } finally {
    await client.close();
  }
}

describe('jsonDeeperThan', () => {
  it.each([
    ['flat object', '{"a":1}', 1, false],
    ['exactly the limit', nested(3), 3, false],
    ['one level over', nested(4), 3, true],
    ['brackets inside strings do not count', JSON.stringify({ t: '[[[[{{{{' }), 2, false],
    ['escaped quotes do not end a string', '{"t":"\\"[[[["}', 2, false],
  ])('%s', (_name, text, limit, deeper) => {
    expect(jsonDeeperThan(text, limit)).toBe(deeper);
  });
});

describe('provider client: bodies it will not read are named', () => {
  it.each([
    ['/deep', 'too-deep', `answered JSON nested deeper than ${MAX_JSON_DEPTH} levels`],
    [
      '/gzip-bomb',
      'compressed',
      'answered a body compressed with gzip (Content-Encoding: gzip); provcert does not decompress provider answers',
    ],
    ['/deflate', 'compressed', 'compressed with deflate (Content-Encoding: deflate)'],
    ['/br', 'compressed', 'compressed with br (Content-Encoding: br)'],
  ])('%s is a %s failure', async (path, kind, message) => {
    const outcome = await get(path);
    expect(outcome.kind).toBe('failure');
    if (outcome.kind !== 'failure') return;
    expect(outcome.failure).toBe(kind);
    expect(outcome.message).toContain(message);
    expect(outcome.exchange.response?.status).toBe(200);
  });

  it.each([['/deep-inside-a-string'], ['/identity']])('%s is read as JSON', async (path) => {
    const outcome = await get(path);
    expect(outcome.kind === 'response' && outcome.bodyKind).toBe('json');
  });

  it('asks for uncompressed answers', async () => {
    await get('/identity');
    expect(acceptEncoding).toBe('identity');
  });

  it('a run against a provider answering 5,000 levels deep reports a finding, not a crash', async () => {
    const report = await runCertification(testConfig(baseUrl, { only: ['metadata'] }), {
      contract: await loadContract(),
      credential: 'body-limits-key',
      webhookSecret: 'body-limits-webhook-secret',
    });
    const metadata = report.checks.find((c) => c.id === 'metadata');
    expect(metadata?.status).toBe('fail');
    expect(metadata?.message).toContain(`nested deeper than ${MAX_JSON_DEPTH} levels`);
  });
});
