import type { Clock } from '../checks/framework/types.js';
import { probeCredential } from '../checks/support/probe-credential.js';
import type { Contract } from '../contract/contract.js';
import { loadRequirements, type RequirementCatalog } from '../contract/requirements.js';
import { createProviderClient } from '../http/client.js';
import type { ProviderClient } from '../http/types.js';
import type { WebhookTimelineEntry } from '../model/report.js';
import type { RunConfig } from '../model/run-config.js';
import type { RunEvents } from '../model/run-events.js';
import { type SpellSetting, spellAsConfigKey } from '../model/setting-speller.js';
import type { ReceivedWebhook, WebhookInbox } from '../model/webhooks.js';
import { timelineEntry } from '../model/webhooks.js';
import { type CoreServer, startCoreServer } from '../server/core-server.js';
import { receiverEventsRoute } from '../server/receiver-events.js';
import { systemClock } from '../util/clock.js';
import { hmacHex } from '../util/hmac.js';
import { Redactor } from '../util/redact.js';
import { guardPosts } from './guarded-client.js';

export interface OpenRunDeps {
  contract: Contract;
  credential: string;
  webhookSecret: string;
  inbox?: WebhookInbox;
  /** The run's live events (model/run-events.ts). */
  hooks?: RunEvents;
  clock?: Clock;
  signal?: AbortSignal;
  requirements?: RequirementCatalog;
  /** How advice in findings names a setting: the front end's flags or options (default: config file keys). */
  spell?: SpellSetting;
  /**
   * The slug the provider is known by where it is registered (a fleet file, `serve`'s registry): its
   * provider-info must answer the same slug, or `metadata` fails naming both. Absent: any slug (a plain `run`).
   */
  expectedSlug?: string;
}

/** What a run holds from its start to its end: the guarded client, the inbox, the masker, the clock. */
export interface OpenRun {
  client: ProviderClient;
  inbox: WebhookInbox;
  redactor: Redactor;
  clock: Clock;
  catalog: RequirementCatalog;
  spell: SpellSetting;
  /** Stops checks in flight (an interrupt, or the run's end). */
  abort: AbortController;
  runId: string;
  startedAt: Date;
  /** performance.now() at the start: the report's duration. */
  started: number;
  /** A webhook as the report's timeline shows it; each entry is built once per webhook (live hook and report). */
  timelineOf(w: ReceivedWebhook): WebhookTimelineEntry;
  /** POST requests are sent only once GET /provider-info declared a safe test environment. */
  declareSafe(safe: boolean): void;
  /**
   * The run's own receiver (absent when the run was given an inbox): its address, which also lists the events of
   * the run's slug to a caller signing with the webhook secret (`provcert events --follow --secret-env`).
   */
  receiverUrl?: string;
  /** The slug whose events the receiver lists, once the run knows it (GET /provider-info). */
  listEventsOf(slug: string): void;
  close(): Promise<void>;
}

let bundledCatalog: Promise<RequirementCatalog> | undefined;

/** timelineEntry, built once per webhook: the live hook and the report share each entry. */
function timelineOnce(): (w: ReceivedWebhook) => WebhookTimelineEntry {
  const entries = new WeakMap<ReceivedWebhook, WebhookTimelineEntry>();
  return (w) => {
    const known = entries.get(w);
    if (known) return known;
    const entry = timelineEntry(w);
    entries.set(w, entry);
    return entry;
  };
}

/**
 * What a run masks in every output: its credential and webhook secret; the wrong credential credential-echo
 * sends (a report shows where a provider repeated it, never the value); with HMAC_SIGNATURE, the signature of
 * the empty body, which every GET carries alike and so works like a key; so does the webhook secret's, which
 * reads the receiver's events listing (server/receiver-events.ts).
 */
function maskedValues(config: RunConfig, deps: OpenRunDeps): string[] {
  const probe = probeCredential(config.seed);
  const hmac = config.auth === 'HMAC_SIGNATURE';
  return [
    deps.credential,
    deps.webhookSecret,
    hmacHex(deps.webhookSecret, ''),
    probe,
    ...(hmac ? [hmacHex(deps.credential, ''), hmacHex(probe, '')] : []),
  ];
}

/**
 * Opens a run: the provider client (stopped by an interrupt), the receiver (the given inbox or an embedded one),
 * the run-begin hook and the webhook subscription. `close()` undoes all of it.
 */
export async function openRun(config: RunConfig, deps: OpenRunDeps): Promise<OpenRun> {
  const clock = deps.clock ?? systemClock;
  const catalog = deps.requirements ?? (await (bundledCatalog ??= loadRequirements()));
  const startedAt = new Date(clock.now());
  const started = performance.now();
  const redactor = new Redactor(maskedValues(config, deps));
  const spell = deps.spell ?? spellAsConfigKey;
  const inner = createProviderClient(
    {
      baseUrl: config.baseUrl,
      authMethod: config.auth,
      credential: deps.credential,
      timeoutMs: config.timeout,
      maxBodyBytes: config.maxBodyBytes,
    },
    // An interrupt also stops requests in flight, so a provider that never answers cannot hold the run.
    { redactor, spell, ...(deps.signal ? { signal: deps.signal } : {}) },
  );
  let safe = false;
  const client = guardPosts(inner, () => safe);
  let listedSlug = deps.expectedSlug;
  // Declared before it listens: the events route reads it per request (one before the assignment: "not ready").
  let ownServer: CoreServer | undefined;
  ownServer = deps.inbox
    ? undefined
    : await startCoreServer({
        host: config.webhookHost,
        port: config.webhookPort,
        contract: deps.contract,
        secretFor: () => deps.webhookSecret,
        routes: [
          receiverEventsRoute({
            slug: () => listedSlug,
            webhookSecret: deps.webhookSecret,
            redactor,
            source: () => ownServer,
          }),
        ],
      });
  const inbox = deps.inbox ?? (ownServer as WebhookInbox);
  const abort = new AbortController();
  const onAbort = () => abort.abort();
  // A signal already stopped never fires 'abort' again: the checks must see it stopped all the same.
  if (deps.signal?.aborted) onAbort();
  else deps.signal?.addEventListener('abort', onAbort, { once: true });
  // The header comes before the first request, so a provider that never answers still gets output at once.
  deps.hooks?.onRunBegin?.(redactor.deep({ baseUrl: config.baseUrl, timeoutMs: config.timeout }));
  // Only a listening hook subscribes: without one the receiver does no extra work per request.
  const onWebhook = deps.hooks?.onWebhook;
  const entryOf = timelineOnce();
  const unsubscribe = onWebhook ? inbox.subscribe((w) => onWebhook(redactor.deep(entryOf(w)))) : undefined;
  return {
    client,
    inbox,
    redactor,
    clock,
    catalog,
    spell,
    abort,
    runId: startedAt.getTime().toString(36),
    startedAt,
    started,
    timelineOf: entryOf,
    declareSafe: (value) => {
      safe = value;
    },
    ...(ownServer ? { receiverUrl: ownServer.url } : {}),
    listEventsOf: (slug) => {
      listedSlug = slug;
    },
    close: async () => {
      unsubscribe?.();
      abort.abort();
      deps.signal?.removeEventListener('abort', onAbort);
      await Promise.all([inner.close(), ownServer?.close()]);
    },
  };
}
