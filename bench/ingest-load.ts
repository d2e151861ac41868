import { createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';

export const REQUESTS = 5_000;
export const CONCURRENCY = 50;
export const SLUG = 'bench-provider';
export const SECRET = 'bench-webhook-secret';

export interface Measurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

function postOnce(agent: Agent, url: URL, body: string, signature: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-service-signature': signature,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** REQUESTS distinct signed events at CONCURRENCY over keep-alive connections. */
export async function measure(target: string, runTag: string): Promise<Measurement> {
  const url = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const bodies = Array.from({ length: REQUESTS }, (_, i) =>
    JSON.stringify({
      eventId: `${runTag}-${i}`,
      eventType: 'action.status_updated',
      providerSlug: SLUG,
      timestamp: new Date().toISOString(),
      actionId: `a-${i}`,
      newStatus: 'COMPLETED',
    }),
  );
  const signatures = bodies.map((b) => createHmac('sha256', SECRET).update(b).digest('hex'));
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        const i = next++;
        const t0 = performance.now();
        const status = await postOnce(agent, url, bodies[i] ?? '', signatures[i] ?? '').catch(() => 0);
        latencies.push(performance.now() - t0);
        if (status !== 200) failures++;
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requestsPerSecond: REQUESTS / elapsedS, p50Ms: at(0.5), p99Ms: at(0.99), failures };
}

/** Run as a worker thread: measure the target given in workerData and post the result back. */
if (!isMainThread && parentPort) {
  const { target, runTag } = workerData as { target: string; runTag: string };
  const port = parentPort;
  void measure(target, runTag).then((m) => port.postMessage(m));
}
