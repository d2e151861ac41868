import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RawServeOptions, resolveServeSettings } from '../../src/config/serve.js';
import { createConsole } from '../../src/console/console.js';
import { loadContract } from '../../src/contract/load.js';
import type { RunReport } from '../../src/model/report.js';
import { type RunningServe, startServe } from '../../src/server/serve.js';
import { type ApiCall, apiClient, event, post, sign } from '../server/support/http-client.js';
import { registration } from '../support/registration.js';

export const ADMIN = 'console-admin-token-canary-31';
export const CREDENTIAL = 'console-provider-credential-canary-58';

export interface Harness {
  serve: RunningServe;
  dir: string;
  url: string;
  /** The next certification waits for this while set (to watch one running). */
  hold: { until?: Promise<void> };
  reports: Map<string, () => RunReport>;
  api: ApiCall;
  register(fields: Record<string, unknown>): Promise<{ secret: string; token: string; json: Record<string, unknown> }>;
  sendEvent(slug: string, secret: string, overrides?: Record<string, unknown>): Promise<number>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Serve's flags beyond the port, data dir and --local (e.g. `slug` for a configured slug). */
  flags?: Omit<RawServeOptions, 'port' | 'dataDir' | 'local'>;
  /** Serve's log lines (masked as the serve command's are). */
  log?: (line: string) => void;
}

/** `provcert serve` in-process with the console mounted, as the serve command does, and a certifier the test controls. */
export async function startHarness(fallback: () => RunReport, options: HarnessOptions = {}): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'provcert-console-'));
  const dataDir = join(dir, 'data');
  const contract = await loadContract();
  const hold: Harness['hold'] = {};
  const reports = new Map<string, () => RunReport>();
  const settings = await resolveServeSettings({ ...options.flags, port: '0', dataDir, local: true }, dir);
  const operatorConsole = createConsole();
  const serve = await startServe(settings, {
    contract,
    certify: async ({ registration: r, hooks }) => {
      const report = (reports.get(r.slug) ?? fallback)();
      // As the engine does: the plan's size first, then each check as it ends (one here, the rest after the hold).
      hooks?.onRunStart?.({ baseUrl: r.baseUrl, webhookUrl: '', profile: 'test', checks: report.checks.length });
      const [first, ...rest] = report.checks;
      if (first) hooks?.onCheckEnd?.(first);
      await hold.until;
      for (const check of rest) hooks?.onCheckEnd?.(check);
      return report;
    },
    env: { PROVCERT_ADMIN_TOKEN: ADMIN, DEMO_CREDENTIAL: CREDENTIAL },
    cwd: dir,
    mount: operatorConsole.routes,
    ...(options.log ? { log: options.log } : {}),
  });
  operatorConsole.attach(serve, ADMIN);
  const url = serve.core.url;

  const api = apiClient(url, ADMIN);
  return {
    serve,
    dir,
    url,
    hold,
    reports,
    api,
    async register(fields) {
      const answer = await api('POST', '/api/v1/providers/register', registration(fields));
      if (answer.status !== 201)
        throw new Error(`registration answered ${answer.status}: ${JSON.stringify(answer.json)}`);
      const webhook = answer.json['webhook'] as { secret: string };
      const token = (answer.json['providerToken'] as { token: string }).token;
      return { secret: webhook.secret, token, json: answer.json };
    },
    async sendEvent(slug, secret, overrides = {}) {
      const body = JSON.stringify(event({ providerSlug: slug, ...overrides }));
      const answer = await post(`${url}/api/v1/webhooks/${slug}`, body, {
        'content-type': 'application/json',
        'x-service-signature': sign(secret, body),
      });
      return answer.status;
    },
    async close() {
      await serve.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
