import { CHECKS } from '../checks/registry.js';
import { inferProfile, resolveFulfillment } from '../checks/support/profile.js';
import type { ApplicabilityContext, CheckContext, CheckDefinition, Clock } from '../checks/types.js';
import { createProviderClient } from '../http/client.js';
import { curlFor } from '../http/reproduce.js';
import type { CheckId } from '../model/check-ids.js';
import type { Profile } from '../model/contract-constants.js';
import { CONTRACT_VERSION } from '../model/contract-constants.js';
import type { CheckResult, RunBeginInfo, RunReport, RunStartInfo, WebhookTimelineEntry } from '../model/report.js';
import type { RunConfig } from '../model/run-config.js';
import type { WebhookInbox } from '../model/webhooks.js';
import { timelineEntry } from '../model/webhooks.js';
import { startCoreServer } from '../server/core-server.js';
import type { Contract } from '../spec/contract.js';
import { loadRequirements, type RequirementCatalog } from '../spec/requirements.js';
import { toolVersion } from '../util/package-root.js';
import { Redactor, urlSecrets } from '../util/redact.js';
import { applicabilitySkips } from './applicability.js';
import { systemClock } from './clock.js';
import { guardPosts } from './guarded-client.js';
import { createResources } from './resources-impl.js';
import { readProviderInfo, stoppedRun } from './root-cause.js';
import { type RunHooks, scheduleChecks } from './schedule.js';
import { applyStrict } from './strict.js';

export interface RunDeps {
  contract: Contract;
  credential: string;
  webhookSecret: string;
  /** An already running core (provcert serve); otherwise an embedded receiver is started for the run. */
  inbox?: WebhookInbox;
  /**
   * onRunBegin at once; onRunStart when GET /provider-info has decided the profile and the checks; onWebhook for
   * each webhook request the inbox records during the run (masked, as the report's timeline shows it).
   */
  hooks?: RunHooks & {
    onRunBegin?(info: RunBeginInfo): void;
    onRunStart?(info: RunStartInfo): void;
    onWebhook?(entry: WebhookTimelineEntry): void;
  };
  clock?: Clock;
  signal?: AbortSignal;
  /** The requirements catalog findings cite; default: spec/requirements.yaml. */
  requirements?: RequirementCatalog;
}

let bundledCatalog: Promise<RequirementCatalog> | undefined;

/** Section and quote of each requirement the checks (and their findings) cite. */
function citedRequirements(
  catalog: RequirementCatalog,
  defs: readonly { requirements: readonly string[] }[],
  results: readonly CheckResult[],
): RunReport['requirements'] {
  const ids = new Set([
    ...defs.flatMap((d) => d.requirements),
    ...results.flatMap((r) => r.findings.map((f) => f.requirement)),
  ]);
  const cited: RunReport['requirements'] = {};
  for (const id of [...ids].sort()) {
    const r = catalog.requirementById(id);
    if (r) cited[id] = { section: r.section, quote: r.quote };
  }
  return cited;
}

/** Runs a whole certification against one provider and returns the report. Never throws for provider faults. */
export async function runCertification(config: RunConfig, deps: RunDeps): Promise<RunReport> {
  const clock = deps.clock ?? systemClock;
  const catalog = deps.requirements ?? (await (bundledCatalog ??= loadRequirements()));
  const startedAt = new Date(clock.now());
  const started = performance.now();
  const runId = startedAt.getTime().toString(36);
  const redactor = new Redactor([deps.credential, deps.webhookSecret, ...urlSecrets(config.baseUrl)]);

  const inner = createProviderClient(
    {
      baseUrl: config.baseUrl,
      authMethod: config.authMethod,
      credential: deps.credential,
      timeoutMs: config.timeoutMs,
      maxBodyBytes: config.maxBodyBytes,
    },
    // An interrupt also stops requests in flight, so a provider that never answers cannot hold the run.
    { redactor, ...(deps.signal ? { signal: deps.signal } : {}) },
  );
  let safe = false;
  const client = guardPosts(inner, () => safe);
  const ownServer = deps.inbox
    ? undefined
    : await startCoreServer({
        host: config.webhookHost,
        port: config.webhookPort,
        contract: deps.contract,
        secretFor: () => deps.webhookSecret,
      });
  const inbox = deps.inbox ?? (ownServer as WebhookInbox);
  const abort = new AbortController();
  const onAbort = () => abort.abort();
  deps.signal?.addEventListener('abort', onAbort, { once: true });
  // The header comes before the first request, so a provider that never answers still gets output at once.
  deps.hooks?.onRunBegin?.(redactor.deep({ baseUrl: config.baseUrl, timeoutMs: config.timeoutMs }));
  // Only a listening hook subscribes: without one the receiver does no extra work per request.
  const hooks = deps.hooks;
  const unsubscribe = hooks?.onWebhook
    ? inbox.subscribe((w) => hooks.onWebhook?.(redactor.deep(timelineEntry(w))))
    : undefined;

  try {
    const resources = createResources({ client, contract: deps.contract, config, clock, runId });

    // Provider-info decides applicability (capabilities, profile, fulfillment) and safety; fetch it first. When it
    // cannot (refused, unreachable, not JSON), that is the run's one root cause: one check reports it, every other
    // check is skipped naming it, and nothing is guessed (the report then has no profile).
    const selected = CHECKS.filter((d) => (!config.only || config.only.includes(d.id)) && !config.skip?.includes(d.id));
    const selectedIds = selected.map((d) => d.id);
    const reading = await readProviderInfo({
      resources,
      client,
      contract: deps.contract,
      config,
      credential: deps.credential,
      selected: selectedIds,
    });
    const { info, cause } = reading;
    safe = info?.manifest?.certification?.safeTestEnvironment === true;
    const declared = new Set(info?.capabilities ?? reading.declared ?? config.capabilities ?? []);
    // With a root cause only what the user stated is known: --profile and --fulfillment.
    let profile: Profile | undefined = config.profile;
    let fulfillment = config.fulfillment?.toUpperCase();
    let defs: CheckDefinition[] = selected;
    let decided: Map<CheckId, string>;
    if (cause) {
      ({ defs, skips: decided } = stoppedRun(selected, CHECKS, cause));
    } else {
      profile = inferProfile(config.profile, declared);
      fulfillment = resolveFulfillment(config.fulfillment, info);
      const applicability: ApplicabilityContext = {
        config,
        contract: deps.contract,
        declared,
        profile,
        fulfillment,
        authMethod: config.authMethod,
      };
      decided = applicabilitySkips(defs, applicability, safe ? 'safe' : info ? 'unsafe' : 'unconfirmed');
    }

    const slug = info?.slug ?? 'provider';
    deps.hooks?.onRunStart?.(
      redactor.deep({
        baseUrl: config.baseUrl,
        webhookUrl: inbox.urlFor(slug),
        profile: profile ?? 'unknown',
        ...(info ? { slug: info.slug } : {}),
        checks: defs.length,
        requirements: citedRequirements(catalog, defs, []),
      }),
    );
    const ctx: CheckContext = {
      client,
      contract: deps.contract,
      config,
      resources,
      webhooks: inbox,
      clock,
      signal: abort.signal,
      secrets: [deps.credential, deps.webhookSecret],
    };
    const strict = config.strict === true;
    const results = (
      await scheduleChecks(defs, ctx, decided, {
        concurrency: config.concurrency,
        ...(deps.hooks ? { hooks: maskedHooks(deps.hooks, redactor) } : {}),
        ...(strict ? { transform: applyStrict } : {}),
      })
    ).map((r) => withReproduce(r, config));

    const summary = { pass: 0, fail: 0, skip: 0, error: 0 };
    for (const r of results) summary[r.status]++;
    const finishedAt = new Date(clock.now());
    // Nothing the provider echoed (messages, evidence, provider name…) may carry a secret out.
    return redactor.deep<RunReport>({
      reportVersion: 1,
      tool: { name: 'provcert', version: toolVersion },
      contract: { version: CONTRACT_VERSION, spec: deps.contract.version },
      provider: {
        baseUrl: config.baseUrl,
        ...(info ? { slug: info.slug, name: info.name } : {}),
        authMethod: config.authMethod,
        // Absent when GET /provider-info could not tell (the root cause): never a guess.
        ...(profile ? { profile } : {}),
        capabilities: [...declared],
        ...(fulfillment ? { fulfillment } : {}),
      },
      verdict: summary.fail + summary.error === 0 && summary.pass > 0 ? 'PASS' : 'FAIL',
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationMs: Math.round(performance.now() - started),
      summary,
      checks: results,
      webhooks: {
        url: inbox.urlFor(slug),
        events: inbox.all().map(timelineEntry),
      },
      inputs: recordInputs(config, runId),
      requirements: citedRequirements(catalog, defs, results),
      ...(strict ? { strict: true } : {}),
    });
  } finally {
    unsubscribe?.();
    abort.abort();
    deps.signal?.removeEventListener('abort', onAbort);
    await Promise.all([inner.close(), ownServer?.close()]);
  }
}

/** Live output sees results already masked, as the report does. */
const maskedHooks = (hooks: RunHooks, redactor: Redactor): RunHooks => ({
  onCheckStart: (id, title) => hooks.onCheckStart?.(id, title),
  onCheckProgress: (id, update) => hooks.onCheckProgress?.(id, { ...update, text: redactor.text(update.text) }),
  onCheckEnd: (result) => hooks.onCheckEnd?.(redactor.deep(result)),
});

/** A failed check without its own reproduce command gets one from its most telling exchange. */
function withReproduce(result: CheckResult, config: RunConfig): CheckResult {
  if (result.status !== 'fail' || result.reproduce) return result;
  const exchange = [...result.evidence].reverse().find((e) => e.response) ?? result.evidence.at(-1);
  if (!exchange || exchange.failure?.startsWith('not sent')) return result;
  return { ...result, reproduce: curlFor(exchange, config.authMethod, config.credentialSource) };
}

/** Everything that makes a rerun the same run; secrets only by the name of their source. */
function recordInputs(config: RunConfig, runId: string): Record<string, unknown> {
  return {
    baseUrl: config.baseUrl,
    authMethod: config.authMethod,
    credentialSource: config.credentialSource,
    profile: config.profile ?? null,
    capabilities: config.capabilities ?? null,
    fulfillment: config.fulfillment ?? null,
    local: config.local,
    webhookHost: config.webhookHost,
    webhookPort: config.webhookPort,
    timeoutMs: config.timeoutMs,
    webhookTimeoutMs: config.webhookTimeoutMs,
    maxExpiryWaitS: config.maxExpiryWaitS,
    only: config.only ?? null,
    skip: config.skip ?? null,
    strict: config.strict === true,
    seed: config.seed,
    runId,
    idempotencyKeys: 'provcert-{seed}-{runId}-{label}',
  };
}
