import { resolveServeSettings } from '../../../src/config/serve.js';
import { loadContract } from '../../../src/contract/load.js';
import type { Certifier } from '../../../src/server/core-routes/deps.js';
import { type RunningServe, startServe } from '../../../src/server/serve.js';
import { fakeReport } from '../support/fake-report.js';

export const ADMIN = 'admin-token-accounts-4c1d';

export interface Answer {
  status: number;
  json: Record<string, unknown>;
}

/** A `provcert serve` in this process on loopback: a fake certifier unless one is given, DEMO_CREDENTIAL set. */
export async function startCore(
  dataDir: string,
  options: { certify?: Certifier; now?: () => Date; env?: NodeJS.ProcessEnv } = {},
): Promise<RunningServe> {
  const settings = await resolveServeSettings({ port: '0', dataDir, local: true }, dataDir);
  return startServe(settings, {
    contract: await loadContract(),
    certify: options.certify ?? (async () => fakeReport('PASS')),
    env: { PROVCERT_ADMIN_TOKEN: ADMIN, DEMO_CREDENTIAL: 'demo-credential-accounts-81', ...options.env },
    cwd: dataDir,
    log: () => undefined,
    ...(options.now ? { now: options.now } : {}),
  });
}

/** One call of the core API with `token` (null: none). */
export async function call(
  serve: RunningServe,
  token: string | null,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<Answer> {
  const res = await fetch(`${serve.core.url}/api/v1${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = { text };
  }
  return { status: res.status, json };
}

/** A new account (by the operator) and its token. */
export async function createAccount(
  serve: RunningServe,
  name: string,
): Promise<{ id: string; token: string; jti: string }> {
  const created = await call(serve, ADMIN, 'POST', '/admin/accounts', { name });
  if (created.status !== 201) throw new Error(`account not created: ${JSON.stringify(created.json)}`);
  const account = created.json['account'] as { id: string };
  const token = created.json['token'] as { token: string; jti: string };
  return { id: account.id, token: token.token, jti: token.jti };
}
