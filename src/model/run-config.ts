import type { CheckId } from './check-ids.js';
import type { AuthMethod, Profile } from './contract-constants.js';

/** Fully resolved options of one certification run (flags > environment > config file > defaults). */
export interface RunConfig {
  baseUrl: string;
  authMethod: AuthMethod;
  /** Where the credential came from, for reports and reproduce commands (never the value). */
  credentialSource: { kind: 'env'; name: string } | { kind: 'file'; path: string };
  /** Explicit profile; undefined = inferred from the declared capabilities. */
  profile?: Profile;
  /** Capabilities declared in the portal (--capabilities); undefined = not given. */
  capabilities?: string[];
  fulfillment?: string;
  local: boolean;
  webhookHost: string;
  webhookPort: number;
  webhookSecretSource: { kind: 'env'; name: string } | { kind: 'generated' };
  webhookTimeoutMs: number;
  timeoutMs: number;
  maxExpiryWaitS: number;
  only?: CheckId[];
  skip?: CheckId[];
  /** Generated orders quote-explore sends (--explore; undefined = its default, 0 = off). */
  explore?: number;
  /** Seed for generated test data (idempotency keys, customer, explored orders), recorded for replay. */
  seed: string;
  maxBodyBytes: number;
  /** Concurrency of independent checks. */
  concurrency: number;
  /** Warnings count as failures (a zero-warning gate); default lenient where the contract is open. */
  strict?: boolean;
}

/** Generated orders quote-explore sends when the run sets no explore budget (`RunConfig.explore` undefined). */
export const DEFAULT_EXPLORE_BUDGET = 100;

/**
 * The run configuration's defaults, written once: `run`, `demo`, `replay`, `batch`, `serve`'s certify route and
 * the library take them from here, and a test holds them equal to spec/config.schema.json's `default`s.
 */
export const DEFAULT_RUN_CONFIG = {
  local: false,
  webhookHost: '127.0.0.1',
  webhookPort: 8787,
  webhookTimeoutMs: 30_000,
  timeoutMs: 10_000,
  maxExpiryWaitS: 120,
  maxBodyBytes: 5 * 1024 * 1024,
  concurrency: 8,
  strict: false,
} as const satisfies Partial<RunConfig>;
