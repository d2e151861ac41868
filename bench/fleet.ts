import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningProvider, startReferenceProvider } from '../src/reference-provider/index.js';
import type { ChildInput, ChildOutput } from './fleet-child.js';

const PROVIDERS = 20;
const QUOTE_TTL_S = 5;
const WALL_TARGET = 2;
const MEMORY_TARGET = 3;
const CHILD = join(import.meta.dirname, 'fleet-child.js');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function measure(input: ChildInput): Promise<ChildOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, JSON.stringify(input)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`bench child (${input.mode}) exited with ${code}`));
      resolve(JSON.parse(out) as ChildOutput);
    });
  });
}

/** Reference providers in this process, each with its own slug, credential and webhook secret. */
async function startProviders(count: number, port: number, scratch: string) {
  const started: { provider: RunningProvider; slug: string; credential: string; webhookSecret: string }[] = [];
  for (let i = 1; i <= count; i++) {
    const slug = `bench-kitchen-${i}`;
    const credential = `bench-credential-${i}`;
    const webhookSecret = `bench-webhook-secret-${i}`;
    const provider = await startReferenceProvider({
      slug,
      authMethod: 'API_KEY',
      credential,
      webhookSecret,
      webhookUrl: `http://127.0.0.1:${port}/api/v1/webhooks/${slug}`,
      dataFile: join(scratch, `${slug}.json`),
      quoteTtlSeconds: QUOTE_TTL_S,
    });
    started.push({ provider, slug, credential, webhookSecret });
  }
  return started;
}

/**
 * 20 reference providers certified by one batch (all at once) against one certification alone, each measured
 * in its own child process. Targets: the batch takes at most 2× the wall time and 3× the peak memory (RSS).
 */
export async function main(): Promise<void> {
  const scratch = await mkdtemp(join(tmpdir(), 'provcert-bench-fleet-'));
  const port = await freePort();
  const providers = await startProviders(PROVIDERS, port, scratch);
  const entries = providers.map(({ provider, slug, credential, webhookSecret }) => ({
    slug,
    url: provider.url,
    credential,
    webhookSecret,
  }));
  try {
    const single = await measure({ mode: 'single', webhookPort: port, concurrency: 1, providers: entries.slice(0, 1) });
    const fleet = await measure({ mode: 'fleet', webhookPort: port, concurrency: PROVIDERS, providers: entries });
    const failed = [...single.verdicts, ...fleet.verdicts].filter((v) => v !== 'PASS').length;
    if (failed > 0) throw new Error(`bench fleet: ${failed} certification(s) did not pass`);
    const wall = fleet.wallMs / single.wallMs;
    const memory = fleet.maxRssKb / single.maxRssKb;
    const verdict = (ok: boolean): string => (ok ? 'OK' : 'MISSED');
    console.log(
      `fleet: ${PROVIDERS} reference providers in one batch (--concurrency ${PROVIDERS}) vs one certification`,
    );
    console.log(
      `  wall time ${(fleet.wallMs / 1000).toFixed(2)} s vs ${(single.wallMs / 1000).toFixed(2)} s: ` +
        `${wall.toFixed(2)}× (target ≤ ${WALL_TARGET}×) ${verdict(wall <= WALL_TARGET)}`,
    );
    console.log(
      `  peak memory ${(fleet.maxRssKb / 1024).toFixed(0)} MB vs ${(single.maxRssKb / 1024).toFixed(0)} MB: ` +
        `${memory.toFixed(2)}× (target ≤ ${MEMORY_TARGET}×) ${verdict(memory <= MEMORY_TARGET)}`,
    );
  } finally {
    await Promise.all(providers.map(({ provider }) => provider.close()));
    await rm(scratch, { recursive: true, force: true });
  }
}
