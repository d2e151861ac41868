import { join } from 'node:path';
import { loadContract } from '../../src/contract/load.js';
import type { CheckId } from '../../src/model/check-ids.js';
import type { AuthMethod, Profile } from '../../src/model/contract-constants.js';
import type { RunReport } from '../../src/model/report.js';
import type { RunConfig } from '../../src/model/run-config.js';
import {
  FAULTS,
  type FaultName,
  REFERENCE_SLUG,
  type RunningProvider,
  startReferenceProvider,
  type Variant,
} from '../../src/reference-provider/index.js';
import { runCertification } from '../../src/runner/run.js';
import { startCoreServer } from '../../src/server/core-server.js';
import { ManualClock } from '../../src/util/manual-clock.js';
import { type AnswerDelay, type ProxyRule, type RequestDelay, startRewritingProxy } from './rewriting-proxy.js';
import { scratchDir } from './scratch.js';

export const TEST_CREDENTIAL = 'test-credential-7f3a9c';
export const TEST_WEBHOOK_SECRET = 'test-webhook-secret-51be02';

export interface CertifyOptions {
  faults?: FaultName[];
  authMethod?: AuthMethod;
  only?: CheckId[];
  /** --skip: the checks left out. */
  skip?: CheckId[];
  profile?: Profile;
  /** Capabilities the reference provider declares (default: all eleven). */
  capabilities?: string[];
  quoteTtlSeconds?: number;
  webhookTimeoutMs?: number;
  credential?: string;
  webhookSecret?: string;
  /** Which conforming variant of the reference provider answers (default standard). */
  variant?: Variant;
  /** --strict: warnings count as failures. */
  strict?: boolean;
  /** The capabilities registered in the portal (--capabilities). */
  portalCapabilities?: string[];
  /** The base URL entered, from the provider's and the core's real addresses (default: the provider's). */
  baseUrl?: (providerUrl: string, coreUrl: string) => string;
  /** --local (default true: loopback runs). */
  local?: boolean;
  /** --seed and --explore (quote-explore's generated orders). */
  seed?: string;
  explore?: number;
  /** --fulfillment (default: what provider-info says). */
  fulfillment?: string;
  /** --max-expiry-wait in seconds (default 30). */
  maxExpiryWaitS?: number;
  /** The budgets a user can raise: --explore-time-cap (seconds) and --lifecycle-orders. */
  budgets?: Partial<Pick<RunConfig, 'exploreTimeCap' | 'lifecycleOrders'>>;
  /** --spec: this OpenAPI document instead of the bundled contract. */
  specPath?: string;
  /**
   * The time the run and the provider share (default manual: a clock both read, moved on whenever they both only
   * wait, so quote validities and webhook timeouts pass without being waited out). system: the wall clock, for a
   * run whose waits are what is under test or whose requests something else holds (a proxy's delays).
   */
  clock?: 'manual' | 'system';
}

/**
 * A run config for loopback tests: local, fixed seed. The request timeout (the product's default) and the wait for
 * webhook events end as soon as the answer or the events arrive, in milliseconds when all goes well; they are long
 * because a loaded CI machine can stall a test process for seconds, and a shorter wait would then report a
 * conforming provider as slow or silent. Only a test whose events never come waits one out.
 */
export function testConfig(baseUrl: string, overrides: Partial<RunConfig> = {}): RunConfig {
  return {
    baseUrl,
    auth: 'API_KEY',
    credentialSource: { kind: 'env', name: 'PROVIDER_API_KEY' },
    local: true,
    webhookHost: '127.0.0.1',
    webhookPort: 0,
    webhookSecretSource: { kind: 'env', name: 'SERVICE_WEBHOOK_SECRET' },
    webhookTimeout: 10_000,
    timeout: 10_000,
    maxExpiryWait: 30,
    seed: 'test',
    maxBodyBytes: 1024 * 1024,
    concurrency: 8,
    ...overrides,
  };
}

/** Start the reference provider (with faults) and an embedded core, certify it, tear both down. */
export async function certify(options: CertifyOptions = {}): Promise<{ report: RunReport; provider: RunningProvider }> {
  const contract = await loadContract(options.specPath);
  const credential = options.credential ?? TEST_CREDENTIAL;
  const webhookSecret = options.webhookSecret ?? TEST_WEBHOOK_SECRET;
  const authMethod = options.authMethod ?? 'API_KEY';
  const core = await startCoreServer({
    host: '127.0.0.1',
    port: 0,
    dataDir: await scratchDir('test-core'),
    contract,
    secretFor: () => webhookSecret,
  });
  const clock = options.clock === 'system' ? undefined : new ManualClock();
  const provider = await startReferenceProvider({
    ...(clock ? { clock } : {}),
    authMethod,
    credential,
    webhookSecret,
    webhookUrl: core.urlFor(REFERENCE_SLUG),
    faults: options.faults ?? [],
    dataFile: join(await scratchDir('test-provider'), 'data.json'),
    quoteTtlSeconds: options.quoteTtlSeconds ?? 5,
    ...(options.capabilities ? { capabilities: options.capabilities } : {}),
    ...(options.variant ? { variant: options.variant } : {}),
  });
  const stopClock = clock?.advanceWhenIdle(() => provider.busy());
  try {
    const config = testConfig(options.baseUrl ? options.baseUrl(provider.url, core.url) : provider.url, {
      auth: authMethod,
      ...(options.local === false ? { local: false } : {}),
      ...(options.portalCapabilities ? { capabilities: options.portalCapabilities } : {}),
      ...(options.only ? { only: options.only } : {}),
      ...(options.skip ? { skip: options.skip } : {}),
      ...(options.profile ? { profile: options.profile } : {}),
      ...(options.strict ? { strict: true } : {}),
      ...(options.webhookTimeoutMs ? { webhookTimeout: options.webhookTimeoutMs } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.explore !== undefined ? { explore: options.explore } : {}),
      ...(options.fulfillment ? { fulfillment: options.fulfillment as RunConfig['fulfillment'] } : {}),
      ...(options.maxExpiryWaitS ? { maxExpiryWait: options.maxExpiryWaitS } : {}),
      ...options.budgets,
    });
    const report = await runCertification(config, {
      contract,
      credential,
      webhookSecret,
      inbox: core,
      ...(clock ? { clock } : {}),
    });
    return { report, provider };
  } finally {
    stopClock?.();
    await provider.webhooksSettled();
    await provider.close();
    await core.close();
  }
}

/** What the proxy in front of the provider does: its rule (which may name the proxy's own address) and delays. */
export interface ProxyPlan {
  rule?: (request: Parameters<ProxyRule>[0], proxyUrl: string) => ReturnType<ProxyRule>;
  answerDelay?: AnswerDelay;
  requestDelay?: RequestDelay;
}

/**
 * certify() with a rewriting proxy on loopback as the base URL, in front of the reference provider: for answers the
 * reference provider does not give, or requests and answers held as a slow machine or provider would.
 */
export async function certifyThroughProxy(
  options: Omit<CertifyOptions, 'baseUrl'>,
  plan: ProxyPlan,
): Promise<{ report: RunReport; provider: RunningProvider }> {
  const rule = plan.rule ?? (() => undefined);
  const proxy = await startRewritingProxy((request) => rule(request, proxy.url), plan.answerDelay, plan.requestDelay);
  try {
    // Held requests are waits the provider does not see (busy()), so the proxy's runs keep the wall clock.
    const held = plan.answerDelay !== undefined || plan.requestDelay !== undefined;
    return await certify({
      ...options,
      ...(held ? { clock: 'system' as const } : {}),
      baseUrl: (providerUrl) => {
        proxy.target = providerUrl;
        return proxy.url;
      },
    });
  } finally {
    await proxy.close();
  }
}

export { FAULTS };
