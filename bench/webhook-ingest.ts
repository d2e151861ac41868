import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { resolveServeSettings } from '../src/config/serve.js';
import { loadContract } from '../src/contract/load.js';
import { startServe } from '../src/server/serve.js';
import { CONCURRENCY, type Measurement, measure, REQUESTS, SECRET, SLUG } from './ingest-load.js';

const ROUNDS = 5;
const TARGET_PERCENT = 80;

/** The same load from a worker thread: its own event loop, so the server does not share one with it. */
function measureFromWorker(target: string, runTag: string): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./ingest-load.js', import.meta.url), { workerData: { target, runTag } });
    worker.once('message', (m: Measurement) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

type Measure = (target: string, runTag: string) => Promise<Measurement>;

/** Warm both, then alternate rounds so drift on a shared machine hits both alike; medians compared. */
async function compare(
  measureWith: Measure,
  bareUrl: string,
  coreUrl: string,
  tag: string,
): Promise<{ bare: Measurement; core: Measurement }> {
  await measureWith(bareUrl, `${tag}-warm-bare`);
  await measureWith(coreUrl, `${tag}-warm-core`);
  const bareRuns: Measurement[] = [];
  const coreRuns: Measurement[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bareRuns.push(await measureWith(bareUrl, `${tag}-bare-${round}`));
    coreRuns.push(await measureWith(coreUrl, `${tag}-core-${round}`));
  }
  return { bare: median(bareRuns), core: median(coreRuns) };
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
 * log) beside a bare node:http server that only answers 200, in one run. Target: ratio ≥ 80 % (issue 12).
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
    // No logger: as a receiver nobody watches (the console's own cost is not the receiver's).
  });
  try {
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/api/v1/webhooks/${SLUG}`;
    const coreUrl = serve.core.urlFor(SLUG);
    const report: string[] = [
      `webhook ingestion: ${REQUESTS} signed events at concurrency ${CONCURRENCY} on loopback, median of ${ROUNDS} alternating rounds`,
    ];
    // Distinct tags: every event id is new, so no round takes the cheaper duplicate path.
    const modes: [string, string, Measure][] = [
      [
        'in-process',
        "load generator in the server's process (both share one event loop: compares CPU per request)",
        measure,
      ],
      [
        'worker',
        'load generator in a worker thread (the server has its own event loop; on 2 cores the generator limits both)',
        measureFromWorker,
      ],
    ];
    for (const [tag, label, measureWith] of modes) {
      const { bare: b, core: c } = await compare(measureWith, bareUrl, coreUrl, tag);
      report.push(
        `${label}:`,
        line('bare node:http (answers 200)', b),
        line('provcert serve (verify + fsync log)', c),
        `  ratio: ${((c.requestsPerSecond / b.requestsPerSecond) * 100).toFixed(0)} % of the bare server's throughput (target ≥ ${TARGET_PERCENT} %)`,
      );
    }
    process.stdout.write(`${report.join('\n')}\n`);
  } finally {
    await serve.close();
    await new Promise<void>((resolve) => bare.close(() => resolve()));
    await rm(dataDir, { recursive: true, force: true });
  }
}
