import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const SLUG = 'bench-provider';
const SECRET = 'bench-attack-webhook-secret';
const ATTACK_CONNECTIONS = 16;
const ATTACK_BODY = Buffer.alloc(1024 * 1024, 'x');
const GENUINE_INTERVAL_MS = 50;
const RSS_SAMPLE_MS = 200;
const BASELINE_S = 5;
const TARGET_PEAK_RSS_MB = 300;
const TARGET_P99_MS = 100;
/** `PROVCERT_BENCH_ATTACK_S=10 npm run bench` runs a shorter attack during development. */
const durationS = (): number => Number(process.env['PROVCERT_BENCH_ATTACK_S'] ?? '60');

const BIN = fileURLToPath(new URL('../../bin/provcert.js', import.meta.url));

interface Posted {
  status: number | 'reset';
  ms: number;
}

function postOnce(url: string, body: Buffer, headers: Record<string, string>): Promise<Posted> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (status: number | 'reset'): void => {
      if (settled) return;
      settled = true;
      resolve({ status, ms: performance.now() - t0 });
    };
    const req = request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
        res.on('error', () => done('reset'));
      },
    );
    req.on('error', () => done('reset'));
    req.end(body);
  });
}

/** Start `provcert serve` as a child (its RSS is measured on its own) and wait for its address. */
async function startServe(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--slug', SLUG], {
    env: { ...process.env, SERVICE_WEBHOOK_SECRET: SECRET, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`provcert serve exited early (${String(code)})`)));
    lines.on('line', (line) => {
      const match = /listening on (http:\/\/[^/\s]+)/.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
  });
  return { child, url };
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? '0');
  return kb / 1024;
}

/**
 * 1 MiB unsigned and wrongly signed bodies flood `provcert serve` (a child process) on 16 connections
 * for PROVCERT_BENCH_ATTACK_S seconds (default 60) at the legacy and the slug route, while genuine signed
 * events arrive every 50 ms. Targets: no crash, peak RSS < 300 MB, every genuine event acknowledged and
 * durable, genuine p99 < 100 ms.
 */
export async function main(): Promise<void> {
  const seconds = durationS();
  const dataDir = await mkdtemp(join(tmpdir(), 'provcert-bench-attack-'));
  const { child, url } = await startServe(dataDir);
  let crashed = false;
  child.once('exit', () => (crashed = true));
  const legacyUrl = `${url}/api/v1/webhooks`;
  const slugUrl = `${url}/api/v1/webhooks/${SLUG}`;
  const acknowledged: string[] = [];
  let genuineFailed = 0;
  /** Genuine signed events every GENUINE_INTERVAL_MS until `until`; their latencies. */
  const sendGenuine = async (until: number): Promise<number[]> => {
    const latencies: number[] = [];
    while (performance.now() < until && !crashed) {
      const eventId = `genuine-${randomUUID()}`;
      const body = Buffer.from(
        JSON.stringify({
          eventId,
          eventType: 'action.status_updated',
          providerSlug: SLUG,
          timestamp: new Date().toISOString(),
          actionId: 'act-bench',
          newStatus: 'PROCESSING',
        }),
      );
      const r = await postOnce(slugUrl, body, {
        'x-service-signature': createHmac('sha256', SECRET).update(body).digest('hex'),
      });
      latencies.push(r.ms);
      if (r.status === 200) acknowledged.push(eventId);
      else genuineFailed++;
      await new Promise((resolve) => setTimeout(resolve, GENUINE_INTERVAL_MS));
    }
    return latencies.sort((a, b) => a - b);
  };
  // Baseline first: the same genuine sender without the attack, to read the figures against.
  const baseline = await sendGenuine(performance.now() + BASELINE_S * 1000);
  const until = performance.now() + seconds * 1000;
  let peakRss = 0;
  const sampler = setInterval(
    () => void rssMb(child.pid ?? 0).then((mb) => (peakRss = Math.max(peakRss, mb))),
    RSS_SAMPLE_MS,
  );

  // The attacker runs in a worker thread: its event loop must not delay the genuine sender's measurements.
  const attacker = new Promise<AttackResult>((resolve, reject) => {
    const worker = new Worker(fileURLToPath(import.meta.url), {
      workerData: { legacyUrl, slugUrl, seconds } satisfies AttackOrder,
    });
    worker.once('message', (m: AttackResult) => resolve(m));
    worker.once('error', reject);
  });

  const [attack, latencies] = await Promise.all([attacker, sendGenuine(until)]);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, await rssMb(child.pid ?? 0));

  const exited = new Promise<void>((resolve) => (crashed ? resolve() : child.once('exit', () => resolve())));
  const crashedDuringAttack = crashed;
  child.kill('SIGTERM');
  await exited;
  const logText = await readFile(join(dataDir, 'webhooks', `${SLUG}.jsonl`), 'utf8').catch(() => '');
  const durable = new Set(
    logText
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { eventId: string }).eventId),
  );
  const lost = acknowledged.filter((id) => !durable.has(id)).length;
  await rm(dataDir, { recursive: true, force: true });

  const quantile = (list: number[], q: number): number =>
    list[Math.min(list.length - 1, Math.floor(q * list.length))] ?? 0;
  const at = (q: number): number => quantile(latencies, q);
  const verdict = (ok: boolean): string => (ok ? 'OK' : 'MISSED');
  const statuses = Object.entries(attack.byStatus)
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');
  process.stdout.write(
    `${[
      `under attack: ${seconds} s of 1 MiB unsigned and wrongly signed bodies on ${ATTACK_CONNECTIONS} connections (legacy and slug routes) against provcert serve (child process), genuine signed events every ${GENUINE_INTERVAL_MS} ms`,
      `  attack requests: ${attack.sent} (${(attack.sent / seconds).toFixed(0)} req/s; answers ${statuses})`,
      `  crash:           ${crashedDuringAttack ? 'yes' : 'no'} (target no) ${verdict(!crashedDuringAttack)}`,
      `  peak RSS:        ${peakRss.toFixed(0)} MB (target < ${TARGET_PEAK_RSS_MB} MB) ${verdict(peakRss < TARGET_PEAK_RSS_MB)}`,
      `  genuine events:  ${acknowledged.length} acknowledged, ${genuineFailed} not, ${lost} acknowledged but not on disk (target all acknowledged and durable) ${verdict(genuineFailed === 0 && lost === 0 && acknowledged.length > 0)}`,
      `  baseline:        genuine p50 ${quantile(baseline, 0.5).toFixed(1)} ms, p99 ${quantile(baseline, 0.99).toFixed(1)} ms without the attack (${BASELINE_S} s; each event is fsynced before its answer)`,
      `  genuine latency: p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${(latencies.at(-1) ?? 0).toFixed(1)} ms (target p99 < ${TARGET_P99_MS} ms) ${verdict(at(0.99) < TARGET_P99_MS)}`,
    ].join('\n')}\n`,
  );
}

interface AttackOrder {
  legacyUrl: string;
  slugUrl: string;
  seconds: number;
}
interface AttackResult {
  sent: number;
  byStatus: Record<string, number>;
}

/** The flood: ATTACK_CONNECTIONS loops, alternating unsigned and wrongly signed 1 MiB bodies. */
async function attack(order: AttackOrder): Promise<AttackResult> {
  const until = performance.now() + order.seconds * 1000;
  const result: AttackResult = { sent: 0, byStatus: {} };
  const wrongSignature = createHmac('sha256', 'not-the-secret').update(ATTACK_BODY).digest('hex');
  await Promise.all(
    Array.from({ length: ATTACK_CONNECTIONS }, async (_, i) => {
      for (let n = 0; performance.now() < until; n++) {
        const r = await postOnce(
          i % 2 === 0 ? order.legacyUrl : order.slugUrl,
          ATTACK_BODY,
          (i + n) % 2 === 0 ? { 'x-service-signature': wrongSignature } : {},
        );
        result.sent++;
        result.byStatus[String(r.status)] = (result.byStatus[String(r.status)] ?? 0) + 1;
      }
    }),
  );
  return result;
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  void attack(workerData as AttackOrder).then((r) => port.postMessage(r));
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main();
}
