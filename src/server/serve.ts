import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Contract } from '../contract/contract.js';
import { UsageError } from '../model/errors.js';
import type { ServeSettings } from '../model/serve-settings.js';
import { Redactor } from '../util/redact.js';
import { KEYS_FILE, KeyStore } from './certificates/key-store.js';
import type { Certifier } from './core-routes/deps.js';
import { ProviderRegistry } from './core-routes/registry.js';
import { readCredential } from './core-routes/request-input.js';
import { createCoreRoutes } from './core-routes/routes.js';
import { API_PREFIX, type CoreServer, startCoreServer } from './core-server.js';
import type { Route } from './route-table.js';
import { AccountStore } from './tokens/accounts.js';
import { heldToken } from './tokens/held-token.js';
import { TokenLedger } from './tokens/token-ledger.js';
import type { PreviousSecret } from './webhook-route.js';

export interface ServeDeps {
  contract: Contract;
  certify: Certifier;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Where the server's lines go; absent = nowhere (the ingestion benchmark). */
  log?: (line: string) => void;
  /** The clock of the secret overlap window (tests move it); default the system clock. */
  now?: () => Date;
  /** The one mount point for what sits above the core (the console under /console): more route table lines. */
  mount?: readonly Route[];
  /** How the banner names a setting (the cli: as its flag, `local` → `--local`); absent: by the setting's name. */
  nameSetting?: (setting: string) => string;
}

export interface RunningServe {
  core: CoreServer;
  /** Start-up lines for the console (the generated secret appears here, the one time it is shown). */
  banner: string[];
  /**
   * The slug a provider token the API accepted belongs to (what is mounted above names a provider session by it);
   * undefined once it is revoked, expired or replaced.
   */
  providerSlugOf(token: string): string | undefined;
  /** The account that registered a provider (undefined: the operator's, or no such provider). */
  ownerOf(slug: string): string | undefined;
  /** The account an account token the API accepted belongs to; undefined once it is revoked or expired. */
  accountOf(token: string): { id: string; name: string } | undefined;
  close(): Promise<void>;
}

const SECRET_FILE = 'webhook-secret';

/** The server-wide webhook secret: from the environment, else generated once and kept in the data dir. */
async function serverSecret(
  settings: ServeSettings,
  env: NodeJS.ProcessEnv,
): Promise<{ secret: string; origin: 'env' | 'generated' | 'stored' }> {
  const fromEnv = env[settings.webhookSecretEnv];
  if (fromEnv) return { secret: fromEnv, origin: 'env' };
  const path = join(settings.dataDir, SECRET_FILE);
  try {
    const stored = (await readFile(path, 'utf8')).trim();
    if (stored) return { secret: stored, origin: 'stored' };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const secret = randomBytes(32).toString('hex');
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(`${secret}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return { secret, origin: 'generated' };
}

/**
 * The server's log with every secret it holds masked: a verified event may carry one (an echoing provider), and a
 * base URL may carry a password. The secrets are the ones handed out so far; the masker is rebuilt when one is new.
 */
function maskedLog(log: (line: string) => void, secrets: Set<string>): (line: string) => void {
  let redactor = new Redactor([...secrets]);
  let known = secrets.size;
  return (line) => {
    if (secrets.size !== known) {
      redactor = new Redactor([...secrets]);
      known = secrets.size;
    }
    log(redactor.text(line));
  };
}

/**
 * Runs `work` on the data dir; a file-system refusal (a read-only or foreign-owned folder, a path through a file,
 * a full disk) becomes one line naming the folder and the setting, exit 2, never a stack trace. Only errors with a
 * file path are the folder's: a listen error (a port in use) passes through to its own message.
 */
async function onDataDir<T>(dir: string, setting: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    const error = e as NodeJS.ErrnoException;
    if (typeof error.code !== 'string' || typeof error.path !== 'string') throw e;
    const why =
      error.code === 'EACCES' || error.code === 'EPERM' || error.code === 'EROFS' ? 'not writable' : 'unusable';
    throw new UsageError(
      `the data dir ${dir} is ${why} (${error.code} on ${error.path}); give serve a folder it can write (${setting})`,
    );
  }
}

/** `provcert serve`: the webhook receiver plus the bearer-protected core routes, on one node:http server. */
export async function startServe(settings: ServeSettings, deps: ServeDeps): Promise<RunningServe> {
  const named = deps.nameSetting ?? ((setting: string) => setting);
  const { registry, keys, shared, tokens, accounts } = await onDataDir(settings.dataDir, named('dataDir'), async () => {
    await mkdir(settings.dataDir, { recursive: true, mode: 0o700 });
    await mkdir(settings.credentialDir, { recursive: true, mode: 0o700 });
    const opened = await ProviderRegistry.open(settings.dataDir);
    const keyStore = await KeyStore.open(settings.dataDir, {
      ...(settings.signingKeyFile !== undefined ? { keyFile: settings.signingKeyFile } : {}),
      now: deps.now ?? ((): Date => new Date()),
    });
    return {
      registry: opened,
      keys: keyStore,
      shared: await serverSecret(settings, deps.env),
      tokens: await TokenLedger.open(settings.dataDir, opened.key),
      accounts: await AccountStore.open(settings.dataDir),
    };
  });
  const configured = new Map<string, string>();
  for (const p of settings.providers) {
    if (p.webhookSecretEnv === undefined) {
      configured.set(p.slug, shared.secret);
      continue;
    }
    const own = deps.env[p.webhookSecretEnv];
    if (!own)
      throw new UsageError(
        `the webhook secret of provider ${p.slug} is missing: environment variable ${p.webhookSecretEnv} is not set`,
      );
    configured.set(p.slug, own);
  }
  const adminToken = deps.env[settings.adminTokenEnv] || undefined;
  const secrets = new Set([
    shared.secret,
    ...configured.values(),
    ...(adminToken ? [adminToken] : []),
    ...tokens.secretParts(),
  ]);
  // Registered providers' credentials are secrets serve knows: masked in the log and every answer from the start.
  for (const p of registry.list()) {
    const credential = await readCredential(p, deps.env, settings.credentialDir);
    if (credential.ok) secrets.add(credential.credential);
  }
  const log = deps.log ? maskedLog(deps.log, secrets) : undefined;
  /** The secret that verifies a slug's webhooks; the log masks it from its first use on. */
  const secretFor = (slug: string): string | undefined => {
    const secret = registry.get(slug)?.webhookSecret ?? configured.get(slug);
    if (secret !== undefined) secrets.add(secret);
    return secret;
  };
  const clock = deps.now ?? ((): Date => new Date());
  /** The secret the last rotation replaced, and whether its overlap window is still open. */
  const previousSecretFor = (slug: string): PreviousSecret | undefined => {
    const previous = registry.get(slug)?.previousWebhookSecret;
    if (previous === undefined) return undefined;
    secrets.add(previous.secret);
    return { ...previous, active: clock().getTime() < Date.parse(previous.validUntil) };
  };

  let core: CoreServer | undefined;
  const routes = createCoreRoutes({
    contract: deps.contract,
    registry,
    certify: deps.certify,
    adminToken,
    adminTokenEnv: settings.adminTokenEnv,
    rules: () => ({
      local: settings.local,
      ...(core ? { coreUrl: core.url } : {}),
      // A refusal names `local` as this server's users set it (serve's CLI: --local).
      ...(deps.nameSetting ? { spell: deps.nameSetting } : {}),
    }),
    core: () => core,
    knownSlug: (slug) => configured.has(slug),
    extraSecrets: () => [...secrets],
    configuredSlugs: () => [...configured.keys()],
    env: deps.env,
    credentialDir: settings.credentialDir,
    webhookSecretOverlapMs: settings.webhookSecretOverlapS * 1000,
    keys,
    tokens,
    accounts,
    now: clock,
    issued: (secret) => secrets.add(secret),
    log,
  });
  core = await onDataDir(settings.dataDir, named('dataDir'), () =>
    startCoreServer({
      host: settings.host,
      port: settings.port,
      dataDir: settings.dataDir,
      contract: deps.contract,
      // A registered provider's own secret always wins: the shared secret verifies configured slugs only.
      secretFor,
      previousSecretFor,
      limits: settings.limits,
      ...(log ? { log } : {}),
      portSetting: 'port',
      routes: [...routes, ...(deps.mount ?? [])],
    }),
  );

  const banner = [
    `provcert core listening on ${core.url}${API_PREFIX}`,
    `  data dir:       ${settings.dataDir}`,
    `  webhooks:       POST ${core.url}${API_PREFIX}/webhooks/{providerSlug}  (legacy: POST ${core.url}${API_PREFIX}/webhooks)`,
  ];
  if (shared.origin === 'generated') {
    banner.push(
      `  webhook secret: ${shared.secret}`,
      '                  (generated and shown only now: set it as the webhook secret in your provider backend)',
    );
  } else {
    banner.push(
      `  webhook secret: ${shared.origin === 'env' ? `from ${settings.webhookSecretEnv}` : `generated earlier (kept in ${join(settings.dataDir, SECRET_FILE)}; not shown again)`}`,
    );
  }
  for (const [slug] of configured) banner.push(`  accepting:      ${core.urlFor(slug)}`);
  if (configured.size === 0)
    banner.push(
      `  no provider slug configured yet: pass ${named('slug')} S, list providers in ${named('config')}, or register one`,
    );
  banner.push(
    adminToken
      ? `  core routes:    ${core.url}${API_PREFIX}/providers/… (Authorization: Bearer $${settings.adminTokenEnv})`
      : `  core routes:    disabled (set ${settings.adminTokenEnv} to enable provider registration and certification)`,
  );
  banner.push(
    settings.webhookSecretOverlapS > 0
      ? `  secret overlap: a rotated-out webhook secret verifies for ${settings.webhookSecretOverlapS} s more`
      : '  secret overlap: none (a rotated-out webhook secret is refused at once)',
  );
  const signing = keys.signingKey();
  banner.push(
    `  signing key:    ${signing.kid} (${signing.source === 'file' ? `from ${named('signingKey')}` : `kept in ${join(settings.dataDir, KEYS_FILE)}`}); certificates verify with ${core.url}${API_PREFIX}/.well-known/jwks.json`,
  );
  banner.push(`  credentials:    credentialFile references are read from ${settings.credentialDir} only`);
  if (settings.local)
    banner.push(`  ${`${named('local')}:`.padEnd(16)}http:// and loopback/private provider addresses are allowed`);

  const running = core;
  return {
    core: running,
    banner,
    providerSlugOf: (token) => {
      const held = heldToken(token, tokens, clock());
      if (held === undefined) return registry.byToken(token)?.registration.slug;
      return held.role === 'provider' && registry.get(held.sub) ? held.sub : undefined;
    },
    ownerOf: (slug) => registry.get(slug)?.accountId,
    accountOf: (token) => {
      const held = heldToken(token, tokens, clock());
      return held?.role === 'account' ? accounts.get(held.sub) : undefined;
    },
    close: async () => {
      await running.close();
      await registry.close();
    },
  };
}
