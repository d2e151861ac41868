import type { Contract } from '../../contract/contract.js';
import type { RunReport } from '../../model/report.js';
import type { RunEvents } from '../../model/run-events.js';
import type { WebhookInbox } from '../../model/webhooks.js';
import type { KeyStore } from '../certificates/key-store.js';
import type { CoreServer } from '../core-server.js';
import type { AccountStore } from '../tokens/accounts.js';
import type { TokenLedger } from '../tokens/token-ledger.js';
import type { Registration, RegistrationRules } from './registration.js';
import type { ProviderRegistry } from './registry.js';

/** What the core routes are built from (provcert serve supplies it). */
export interface CertifyInput {
  registration: Registration;
  credential: string;
  webhookSecret: string;
  inbox: WebhookInbox;
  /** The run's events, for the core's progress of it (checks done out of the total). */
  hooks?: RunEvents;
}

/**
 * Runs the certification engine against a registered provider (injected: tests pass a fake). `inbox` holds only
 * the events that arrived on the provider's own route; the engine must also hold provider-info's slug to
 * `registration.slug`.
 */
export type Certifier = (input: CertifyInput) => Promise<RunReport>;

export interface CoreRoutesDeps {
  /** The compiled contract: validates registration bodies (CoreRegistrationInput). */
  contract: Contract;
  registry: ProviderRegistry;
  certify: Certifier;
  /** Bearer token operators must present; undefined = core routes refuse every request. */
  adminToken: string | undefined;
  adminTokenEnv: string;
  rules: () => RegistrationRules;
  /** The running core's inbox and history (set once it listens). */
  core: () => Pick<CoreServer, 'url' | 'urlFor' | 'all' | 'waitFor' | 'subscribe' | 'events'> | undefined;
  /** Whether a slug is known to the webhook receiver (registered or configured). */
  knownSlug(slug: string): boolean;
  env: NodeJS.ProcessEnv;
  /**
   * Secrets beyond the registry's (the server webhook secret, configured providers' secrets, the credentials
   * `issued` was told): masked in every answer.
   */
  extraSecrets?: () => string[];
  /** Slugs configured with --slug/--config: their webhook verdicts are part of the operations log. */
  configuredSlugs?: () => string[];
  /** The only directory credentialFile references may name files in (symlinks resolved). */
  credentialDir: string;
  /** How long a rotated-out webhook secret still verifies (serve's webhookSecretOverlap); 0 = not at all. */
  webhookSecretOverlapMs: number;
  /** The core's signing keys: certificates are signed with the current one, the JWKS lists them all. */
  keys: KeyStore;
  /** Every JWT the core issued (provider, account, admin) and which were revoked. */
  tokens: TokenLedger;
  /** Accounts the operator created: each onboards its own providers with its token. */
  accounts: AccountStore;
  now?: () => Date;
  /**
   * Told each secret the routes hand out or read (a rotation's new secret, a provider's credential), so the server
   * log and every answer mask it from then on.
   */
  issued?: (secret: string) => void;
  log?: (line: string) => void;
}
