import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CONNECT_TIMEOUT_MS, createProviderClient } from '../../src/http/client.js';
import { Redactor } from '../../src/util/redact.js';

const CREDENTIAL = 'client-connect-credential-17';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A listener that completes no more TCP handshakes: a child process listens with a backlog of 1 and then
 * blocks its event loop, so it never accepts; once the kernel's accept queue is full (filled here), further
 * connection attempts get no answer at all — like an address behind a firewall that drops packets.
 */
async function unansweredAddress(): Promise<string> {
  const source = `const s = require('node:net').createServer();
s.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
  process.stdout.write(s.address().port + '\\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
});`;
  const child: ChildProcess = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => void child.kill('SIGKILL'));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    child.once('error', reject);
  });
  // Fill the accept queue: the first connections complete in the kernel, the rest wait for an answer that never comes.
  const fillers: Socket[] = [];
  let connected = 0;
  await new Promise<void>((resolve) => {
    for (let i = 0; i < 4; i++) {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.once('connect', () => {
        connected += 1;
        if (connected === 2) resolve();
      });
      fillers.push(socket);
    }
  });
  cleanups.push(() => fillers.forEach((s) => s.destroy()));
  return `http://127.0.0.1:${port}`;
}

/** A server that accepts every connection and reads the request, but never answers. */
async function silentServer(): Promise<{ url: string; requested: Promise<void> }> {
  let seen: () => void = () => undefined;
  const requested = new Promise<void>((resolve) => (seen = resolve));
  const server: Server = createServer(() => seen());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requested };
}

const clientFor = (
  baseUrl: string,
  timeoutMs: number,
  deps: { connectTimeoutMs?: number; signal?: AbortSignal } = {},
) => {
  const options = { baseUrl, authMethod: 'API_KEY', credential: CREDENTIAL, timeoutMs, maxBodyBytes: 10_000 } as const;
  const client = createProviderClient(options, { redactor: new Redactor([CREDENTIAL]), ...deps });
  cleanups.push(() => client.close());
  return client;
};

describe('provider client: connect timeout apart from the request timeout', () => {
  it('is a few seconds by default', () => {
    expect(CONNECT_TIMEOUT_MS).toBe(5_000);
  });

  it('an address that never completes the TCP handshake fails on the connect timeout, naming the cause', async () => {
    const baseUrl = await unansweredAddress();
    // Request timeout far beyond the test's own: only the connect timeout can end this request in time.
    const outcome = await clientFor(baseUrl, 600_000, { connectTimeoutMs: 300 }).send({
      method: 'GET',
      path: '/provider-info',
    });
    expect(outcome.kind).toBe('failure');
    if (outcome.kind !== 'failure') return;
    expect(outcome.failure).toBe('timeout');
    expect(outcome.message).toMatch(
      /^could not connect to 127\.0\.0\.1:\d+ within 300 ms: nothing answers at that address/,
    );
  });

  it('a server that accepts but never answers fails on the request timeout (the connection itself worked)', async () => {
    const { url } = await silentServer();
    // The connection completes at once in the kernel, but this process must see it before the connect timeout fires:
    // 2 s, not a few hundred ms, for a loaded machine that stalls the process.
    const outcome = await clientFor(url, 2_000, { connectTimeoutMs: 2_000 }).send({ method: 'GET', path: '/health' });
    expect(outcome.kind === 'failure' && outcome.message).toMatch(
      /^timed out after 2000 ms waiting for http:\/\/127\.0\.0\.1:\d+\/health/,
    );
  });
});

describe('provider client: an interrupted run', () => {
  it('stops a request in flight when the run is interrupted', async () => {
    const { url, requested } = await silentServer();
    const interrupt = new AbortController();
    const pending = clientFor(url, 600_000, { signal: interrupt.signal }).send({ method: 'GET', path: '/health' });
    await requested;
    interrupt.abort('SIGTERM');
    const outcome = await pending;
    expect(outcome.kind === 'failure' && [outcome.failure, outcome.message]).toEqual([
      'network',
      'GET /health was stopped: the run was interrupted',
    ]);
  });

  it('sends nothing once the run is interrupted', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests += 1;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const interrupt = new AbortController();
    interrupt.abort('SIGINT');
    const client = clientFor(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 5_000, {
      signal: interrupt.signal,
    });
    const outcome = await client.send({ method: 'POST', path: '/actions', json: {} });
    expect(outcome.kind === 'failure' && [outcome.failure, outcome.message]).toEqual([
      'blocked',
      'not sent: the run was interrupted before POST /actions',
    ]);
    expect(requests).toBe(0);
  });
});
