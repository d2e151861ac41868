/** The flags of `run` as commander hands them over (strings), before they are parsed and checked. */

/** The `run` options as commander hands them over (strings; parsed and checked here). */
export interface RawRunOptions {
  baseUrl?: string;
  auth?: string;
  credentialEnv?: string;
  credentialFile?: string;
  profile?: string;
  capabilities?: string;
  fulfillment?: string;
  local?: boolean;
  webhookPort?: string;
  webhookHost?: string;
  webhookSecretEnv?: string;
  webhookTimeout?: string;
  timeout?: string;
  maxExpiryWait?: string;
  only?: string;
  skip?: string;
  seed?: string;
  strict?: boolean;
  concurrency?: string;
}

export interface ReportFlags {
  json?: string;
  junit?: string;
  markdown?: string;
  html?: string;
  reporter?: string;
}
