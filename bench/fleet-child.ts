import { loadContract } from '../src/contract/load.js';
import { type FleetMember, runFleet } from '../src/fleet/run-fleet.js';
import type { RunConfig } from '../src/model/run-config.js';
import { runCertification } from '../src/runner/run.js';

/** What the parent hands over: the providers it started, and where the receiver must listen. */
export interface ChildInput {
  mode: 'single' | 'fleet';
  webhookPort: number;
  concurrency: number;
  providers: { slug: string; url: string; credential: string; webhookSecret: string }[];
}

/** What the child prints (one JSON line): its certification's wall time, its peak memory, the verdicts. */
export interface ChildOutput {
  wallMs: number;
  maxRssKb: number;
  verdicts: string[];
}

const configFor = (url: string, webhookPort: number): RunConfig => ({
  baseUrl: url,
  auth: 'API_KEY',
  credentialSource: { kind: 'env', name: 'PROVIDER_API_KEY' },
  local: true,
  webhookHost: '127.0.0.1',
  webhookPort,
  webhookSecretSource: { kind: 'env', name: 'SERVICE_WEBHOOK_SECRET' },
  webhookTimeout: 10_000,
  timeout: 10_000,
  maxExpiryWait: 120,
  seed: 'bench',
  maxBodyBytes: 5 * 1024 * 1024,
  concurrency: 8,
});

/**
 * One measured process: `single` certifies one provider as `provcert run` does (its own receiver), `fleet`
 * certifies them all as `provcert batch` does. The providers live in the parent, so both processes hold only
 * provcert itself and their peak memory compares like for like.
 */
async function child(input: ChildInput): Promise<ChildOutput> {
  const contract = await loadContract();
  const started = performance.now();
  let verdicts: string[];
  if (input.mode === 'single') {
    const [p] = input.providers;
    if (!p) throw new Error('no provider');
    const report = await runCertification(configFor(p.url, input.webhookPort), {
      contract,
      credential: p.credential,
      webhookSecret: p.webhookSecret,
    });
    verdicts = [report.verdict];
  } else {
    const members: FleetMember[] = input.providers.map((p) => ({
      slug: p.slug,
      baseUrl: p.url,
      run: { config: configFor(p.url, input.webhookPort), credential: p.credential, webhookSecret: p.webhookSecret },
    }));
    const report = await runFleet({
      identity: { name: 'bench', digest: '', slugs: members.map((m) => m.slug) },
      members,
      contract,
      webhookHost: '127.0.0.1',
      webhookPort: input.webhookPort,
      concurrency: input.concurrency,
      expectedFailures: [],
    });
    verdicts = report.providers.map((p) => p.verdict);
  }
  const wallMs = performance.now() - started;
  return { wallMs, maxRssKb: process.resourceUsage().maxRSS, verdicts };
}

const arg = process.argv[2];
if (arg) {
  const output = await child(JSON.parse(arg) as ChildInput);
  process.stdout.write(`${JSON.stringify(output)}\n`);
}
