import type { IngestLimits } from './ingest-limits.js';

/**
 * `provcert serve`'s settings and their defaults: read by the server, resolved from flags and the serve config
 * file by config/serve.ts (spec/serve-config.schema.json).
 */

export const DEFAULT_SERVE_PORT = 8787;
export const DEFAULT_SERVE_HOST = '127.0.0.1';
export const DEFAULT_DATA_DIR = '.provcert';
export const DEFAULT_ADMIN_TOKEN_ENV = 'PROVCERT_ADMIN_TOKEN';
/** Under the data dir: where credentialFile references may point by default (never the data dir itself, which holds secrets). */
export const DEFAULT_CREDENTIAL_SUBDIR = 'credentials';
/** Longest wait, in seconds, for a quote to expire during a certification (as `run --max-expiry-wait`). */
export const DEFAULT_MAX_EXPIRY_WAIT_S = 120;
/**
 * How long a rotated-out webhook secret still verifies, in seconds: 0, the contract's "Rotating invalidates the
 * previous signature"; a window is an explicit setting, stated at start-up and in each certificate.
 */
export const DEFAULT_WEBHOOK_SECRET_OVERLAP_S = 0;

/** A provider whose webhooks the server accepts without registration (config file or --slug). */
export interface ConfiguredProvider {
  slug: string;
  /** Env var holding its own webhook secret; absent = the server-wide secret. */
  webhookSecretEnv?: string;
}

export interface ServeSettings {
  host: string;
  port: number;
  dataDir: string;
  local: boolean;
  webhookSecretEnv: string;
  adminTokenEnv: string;
  /** Limits set by flag or config; the rest take the defaults. */
  limits: Partial<IngestLimits>;
  /** credentialFile references are confined to this directory. */
  credentialDir: string;
  providers: ConfiguredProvider[];
  /** The config file's `expectedFailures`, as written: the caller checks them (util/expected-failures) for the certify route. */
  expectedFailures?: unknown;
  /** Longest wait for a quote to expire in a certification; a longer validity ends quote-expiry as error. */
  maxExpiryWait: number;
  /** After a webhook secret rotation, how long the previous secret still verifies (0 = invalid at once). */
  webhookSecretOverlapS: number;
  /** A PEM file holding the core's Ed25519 signing key; absent = a key generated and kept in the data dir. */
  signingKeyFile?: string;
}
