import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveServeSettings } from '../src/server/serve-config.js';
import { startServe } from '../src/server/serve.js';
import { loadContract } from '../src/spec/load.js';

const REQUESTS = 5_000;
const CONCURRENCY = 50;
const ROUNDS = 5;
const SLUG = 'bench-provider';
const SECRET = 'bench-webhook-secret';

interface Measurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

function postOnce(agent: Agent, url: URL, body: string, signature: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-service-signature': signature },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** REQUESTS distinct signed events at CONCURRENCY over keep-alive connections. */
async function measure(target: string, runTag: string): Promise<Measurement> {
  const url = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const bodies = Array.from({ length: REQUESTS }, (_, i) => JSON.stringify({
    eventId: `${runTag}-${i}`, eventType: 'action.status_updated', providerSlug: SLUG, timestamp: new Date().toISOString(), actionId: `a-${i}`, newStatus: 'COMPLETED',
  }));
  const signatures = bodies.map((b) => createHmac('sha256', SECRET).update(b).digest('hex'));
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < REQUESTS) {
      const i = next++;
      const t0 = performance.now();
      const status = await postOnce(agent, url, bodies[i] ?? '', signatures[i] ?? '').catch(() => 0);
      latencies.push(performance.now() - t0);
      if (status !== 200) failures++;
    }
  }));
  const elapsedS = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requestsPerSecond: REQUESTS / elapsedS, p50Ms: at(0.5), p99Ms: at(0.99), failures };
}

/** The run with the median throughput (its latencies stay consistent with it). */
function median(runs: Measurement[]): Measurement {
  const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (!middle) throw new Error('no measurement');
  return middle;
}

function bareServer(): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 16 });
      res.end('{"success":true}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const line = (name: string, m: Measurement): string =>
  `  ${name.padEnd(34)} ${m.requestsPerSecond.toFixed(0).padStart(7)} req/s   p50 ${m.p50Ms.toFixed(2)} ms   p99 ${m.p99Ms.toFixed(2)} ms${m.failures ? `   ${m.failures} failed` : ''}`;

/**
 * Webhook ingestion throughput of the core (signature check, schema validation, durable group-committed
 * log) beside a bare node:http server that only answers 200, in one run. Target: ratio ≥ 60 %.
 */
export async function main(): Promise<void> {
  const contract = await loadContract();
  const dataDir = await mkdtemp(join(tmpdir(), 'provcert-bench-ingest-'));
  const bare = await bareServer();
  const settings = await resolveServeSettings({ port: '0', dataDir, slug: SLUG }, dataDir);
  const serve = await startServe(settings, {
    contract,
    certify: () => Promise.reject(new Error('not used by the benchmark')),
    env: { SERVICE_WEBHOOK_SECRET: SECRET },
    cwd: dataDir,
    log: () => undefined,
  });
  try {
    const barePort = (bare.address() as AddressInfo).port;
    const bareUrl = `http://127.0.0.1:${barePort}/api/v1/webhooks/${SLUG}`;
    // Warm-up of both, then alternating rounds so drift on a shared machine hits both alike; medians compared.
    await measure(bareUrl, 'warm-bare');
    await measure(serve.core.urlFor(SLUG), 'warm-core');
    const bareRuns: Measurement[] = [];
    const coreRuns: Measurement[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bareRuns.push(await measure(bareUrl, `bare-${round}`));
      coreRuns.push(await measure(serve.core.urlFor(SLUG), `core-${round}`));
    }
    const bareResult = median(bareRuns);
    const coreResult = median(coreRuns);
    const ratio = coreResult.requestsPerSecond / bareResult.requestsPerSecond;
    process.stdout.write(
      [
        `webhook ingestion: ${REQUESTS} signed events at concurrency ${CONCURRENCY} on loopback, median of ${ROUNDS} alternating rounds`,
        line('bare node:http (answers 200)', bareResult),
        line('provcert serve (verify + fsync log)', coreResult),
        `  ratio: ${(ratio * 100).toFixed(0)} % of the bare server's throughput (target ≥ 60 %)`,
        '',
      ].join('\n'),
    );
  } finally {
    await serve.close();
    await new Promise<void>((resolve) => bare.close(() => resolve()));
    await rm(dataDir, { recursive: true, force: true });
  }
}
