import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import type { CheckResult } from '../../src/model/report.js';
import { runCertification } from '../../src/runner/run.js';
import { TEST_CREDENTIAL, TEST_WEBHOOK_SECRET, testConfig } from '../support/certify.js';

/** A loopback server that is not a provider API, to see what base-url says about it. */
async function serve(handler: RequestListener): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((close) => close()));
});

async function baseUrlResult(baseUrl: string, timeoutMs = 5_000): Promise<CheckResult | undefined> {
  const contract = await loadContract();
  const report = await runCertification(testConfig(baseUrl, { only: ['base-url'], timeout: timeoutMs }), {
    contract,
    credential: TEST_CREDENTIAL,
    webhookSecret: TEST_WEBHOOK_SECRET,
  });
  return report.checks.find((c) => c.id === 'base-url');
}

describe('base-url diagnoses what the address really is', () => {
  it('an HTML site is a frontend address', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><html><body>Welcome to our shop</body></html>');
    });
    const result = await baseUrlResult(url);
    expect(result?.status).toBe('fail');
    expect(result?.message).toMatch(/looks like a frontend address: GET \/health answered HTTP 200 with an HTML page/);
  });

  it('404 on /health and /provider-info is a wrong base path', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"code":"NOT_FOUND","message":"no route"}');
    });
    const result = await baseUrlResult(url);
    expect(result?.status).toBe('fail');
    expect(result?.message).toMatch(/wrong base path: GET \/health and GET \/provider-info both answered 404/);
    expect(result?.evidence).toHaveLength(2);
    expect(result?.findings?.filter((x) => x.severity === 'fail').map((x) => x.requirement)).toEqual([
      'BASE-URL-REACHABLE',
    ]);
  });

  it('no answer is unreachable or slow, said with the timeout', async () => {
    const { url } = await serve(() => {
      // never answers
    });
    const result = await baseUrlResult(url, 200);
    expect(result?.status).toBe('fail');
    expect(result?.message).toMatch(/unreachable or slow: GET \/health timed out after 200 ms/);
    // Nothing about HTTPS failed: the finding stands on reachability (issue 22 item 2).
    expect(result?.findings?.filter((x) => x.severity === 'fail').map((x) => x.requirement)).toEqual([
      'BASE-URL-REACHABLE',
    ]);
  });

  it('an address ending in /health is rejected even when it answers', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"HEALTHY","latencyMs":1,"timestamp":"2026-01-01T00:00:00Z"}');
    });
    const result = await baseUrlResult(`${url}/health`);
    expect(result?.status).toBe('fail');
    expect(result?.message).toMatch(/ends with \/health; enter the API root \(e\.g\. http:\/\/127\.0\.0\.1:\d+\)/);
  });
});
