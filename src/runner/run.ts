import type { Resources } from '../checks/framework/resources.js';
import { createResources } from '../checks/framework/resources-impl.js';
import type { CheckContext } from '../checks/framework/types.js';
import type { RequirementCatalog } from '../contract/requirements.js';
import { followEventsCommand } from '../http/provcert-command.js';
import { curlFor } from '../http/reproduce.js';
import type { CheckId } from '../model/check-ids.js';
import { CONTRACT_VERSION } from '../model/contract-constants.js';
import type { CheckResult, RunReport } from '../model/report.js';
import type { RunConfig } from '../model/run-config.js';
import type { RunEvents } from '../model/run-events.js';
import { recordRunInputs } from '../model/run-inputs.js';
import { countChecks, deriveRunVerdict } from '../model/verdict.js';
import type { ExpectedFailure } from '../model/waivers.js';
import { systemClock } from '../util/clock.js';
import { toolVersion } from '../util/package-root.js';
import type { Redactor } from '../util/redact.js';
import { observedCauses } from './observed.js';
import { type OpenRun, type OpenRunDeps, openRun } from './open-run.js';
import { planChecks, type RunPlan } from './plan.js';
import { type RunHooks, type Scheduled, scheduleChecks } from './schedule.js';
import { selectChecks } from './selection.js';
import { applyStrict, strictExemptions } from './strict.js';
import { evaluateWaivers, previewWaivers, refuseDistantWaivers, utcDate } from './waivers.js';
import { webhookSection } from './webhook-section.js';

export interface RunDeps extends OpenRunDeps {
  /**
   * Known failures the gate lives with until a date (a config or fleet file's `expectedFailures`, the library's
   * option): judged here, on the day the run started (UTC), so every entry point gives the same verdict.
   */
  expectedFailures?: readonly ExpectedFailure[];
}

/**
 * The one certify entry point (run, demo, replay, batch, serve's certify route and the library go through it):
 * opens the run, plans the checks, schedules them, assembles the report and judges the waivers. Never throws for
 * provider faults; an interrupt (`signal`) ends it early with the report of what ran.
 */
export async function runCertification(config: RunConfig, deps: RunDeps): Promise<RunReport> {
  const waivers = deps.expectedFailures ?? [];
  const today = utcDate(new Date((deps.clock ?? systemClock).now()));
  if (config.strict === true) refuseDistantWaivers(waivers, today);
  // The console and the event stream show a waived check the moment it ends; the judgement is on the report.
  const hooks = deps.hooks && waivers.length > 0 ? previewWaivers(deps.hooks, waivers, today) : deps.hooks;
  selectChecks(config); // a selection that cannot work is refused before anything is opened or sent
  const run = await openRun(config, { ...deps, ...(hooks ? { hooks } : {}) });
  try {
    const resources = createResources({
      client: run.client,
      contract: deps.contract,
      config,
      clock: run.clock,
      runId: run.runId,
    });
    const plan = await planChecks(run, config, { resources, contract: deps.contract, credential: deps.credential });
    run.listEventsOf(plan.slug);
    const follow = run.receiverUrl && followEventsCommand(config, run.receiverUrl, plan.slug);
    hooks?.onRunStart?.(
      run.redactor.deep({
        baseUrl: config.baseUrl,
        webhookUrl: run.inbox.urlFor(plan.slug),
        ...(follow ? { followCommand: follow } : {}),
        profile: plan.profile ?? 'unknown',
        ...(plan.info ? { slug: plan.info.slug } : {}),
        checks: plan.defs.length,
        requirements: citedRequirements(run.catalog, plan, []),
      }),
    );
    const ran = await scheduleRun(run, config, plan, { resources, deps, hooks });
    // A defect seen in the subject of a check the selection left out fails the run all the same (observed.ts).
    const observed = observedCauses(ran.results, ran.observations, plan.leftOut);
    const added = observed.added.map((r) => finishObserved(r, config));
    for (const result of added) hooks?.onCheckEnd?.(run.redactor.deep(result));
    const scheduled = { ...ran, results: observed.results.map((r) => added.find((a) => a.id === r.id) ?? r) };
    return judgeWaivers(
      assembleReport(run, config, { ...plan, leftOut: observed.leftOut }, scheduled, {
        interruptedBy: stoppedBy(deps.signal),
        actions: resources.createdActions(),
      }),
      waivers,
    );
  } finally {
    await run.close();
  }
}

/** Runs the planned checks, as early as their dependencies allow; results masked and with a reproduce command. */
async function scheduleRun(
  run: OpenRun,
  config: RunConfig,
  plan: RunPlan,
  parts: { resources: Resources; deps: RunDeps; hooks: RunEvents | undefined },
): Promise<Scheduled> {
  const { deps, hooks } = parts;
  const ctx: CheckContext = {
    client: run.client,
    contract: deps.contract,
    config,
    resources: parts.resources,
    webhooks: run.inbox,
    clock: run.clock,
    signal: run.abort.signal,
    secrets: [deps.credential, deps.webhookSecret],
    spell: run.spell,
    ...(deps.expectedSlug === undefined ? {} : { expectedSlug: deps.expectedSlug }),
  };
  return scheduleChecks(plan.defs, ctx, plan.decided, {
    concurrency: config.concurrency,
    causes: plan.causes,
    ...(hooks ? { hooks: maskedHooks(hooks, run.redactor) } : {}),
    // Applied before a check's end is announced, so the live console shows the same reproduce as the report.
    transform: (r: CheckResult) => withReproduce(config.strict === true ? applyStrict(r, config) : r, config),
  });
}

/** The run report of what ran; nothing the provider echoed (messages, evidence, name…) may carry a secret out. */
function assembleReport(
  run: OpenRun,
  config: RunConfig,
  plan: RunPlan,
  { results, notRun }: Scheduled,
  ending: { interruptedBy: string | undefined; actions: ReturnType<Resources['createdActions']> },
): RunReport {
  const { interruptedBy, actions } = ending;
  const finishedAt = new Date(run.clock.now());
  const exempted = config.strict === true ? strictExemptions(results, config) : [];
  return run.redactor.deep<RunReport>({
    reportVersion: 1,
    tool: { name: 'provcert', version: toolVersion },
    contract: { version: CONTRACT_VERSION, spec: plan.specVersion },
    provider: {
      baseUrl: config.baseUrl,
      ...(plan.info ? { slug: plan.info.slug, name: plan.info.name } : {}),
      authMethod: config.auth,
      // Absent when GET /provider-info could not tell (the root cause): never a guess.
      ...(plan.profile ? { profile: plan.profile } : {}),
      capabilities: [...plan.declared],
      ...(plan.fulfillment ? { fulfillment: plan.fulfillment } : {}),
    },
    verdict: deriveRunVerdict({ checks: results, interruptedBy, leftOut: plan.leftOut }),
    ...(interruptedBy !== undefined ? { interruptedBy, notRun: notRunOf(plan, notRun) } : {}),
    leftOut: plan.leftOut,
    ...(plan.pulledIn.length > 0 ? { pulledIn: plan.pulledIn } : {}),
    startedAt: run.startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: Math.round(performance.now() - run.started),
    summary: countChecks(results),
    checks: results,
    webhooks: webhookSection(run.inbox, plan.slug, actions, run.timelineOf),
    inputs: recordRunInputs(config, run.runId),
    requirements: citedRequirements(run.catalog, plan, results),
    ...(config.strict === true ? { strict: true } : {}),
    ...(exempted.length > 0 ? { strictExempted: exempted } : {}),
  });
}

/**
 * The checks the interruption kept from running. When it cut off the check carrying a root cause, the cause may be
 * the interruption's own doing (a request never sent), so the checks skipped for it did not run either.
 */
function notRunOf(plan: RunPlan, stopped: readonly CheckId[]): CheckId[] {
  const cause = plan.rootCause;
  if (cause === undefined || !stopped.includes(cause)) return [...stopped];
  const owed = new Set([...stopped, ...[...plan.causes].filter(([, c]) => c === cause).map(([id]) => id)]);
  return plan.defs.map((d) => d.id).filter((id) => owed.has(id));
}

/** What stopped the run: the signal's name ("SIGINT", "SIGTERM"), or "aborted" for an abort without one. */
const stoppedBy = (signal: AbortSignal | undefined): string | undefined =>
  signal?.aborted ? (typeof signal.reason === 'string' ? signal.reason : 'aborted') : undefined;

/** The report judged against the expected failures, on the day the run started (UTC). */
function judgeWaivers(report: RunReport, waivers: readonly ExpectedFailure[]): RunReport {
  if (waivers.length === 0) return report;
  const runs = [{ slug: report.provider.slug ?? '', report }];
  return evaluateWaivers(waivers, runs, utcDate(new Date(report.startedAt))).reports[0] ?? report;
}

/** Section and quote of each requirement the checks (and their findings) cite. */
function citedRequirements(
  catalog: RequirementCatalog,
  plan: RunPlan,
  results: readonly CheckResult[],
): RunReport['requirements'] {
  const ids = new Set([
    ...plan.defs.flatMap((d) => d.requirements),
    ...results.flatMap((r) => r.findings.map((f) => f.requirement)),
  ]);
  const cited: RunReport['requirements'] = {};
  for (const id of [...ids].sort()) {
    const r = catalog.requirementById(id);
    if (r) cited[id] = { section: r.section, quote: r.quote };
  }
  return cited;
}

/** Live output sees results already masked, as the report does. */
const maskedHooks = (hooks: RunHooks, redactor: Redactor): RunHooks => ({
  onCheckStart: (id, title) => hooks.onCheckStart?.(id, title),
  onCheckProgress: (id, update) => hooks.onCheckProgress?.(id, { ...update, text: redactor.text(update.text) }),
  onCheckEnd: (result) => hooks.onCheckEnd?.(redactor.deep(result)),
});

/** An observed root cause is finished as a check's result is: strict mode, and its reproduce command. */
const finishObserved = (result: CheckResult, config: RunConfig): CheckResult =>
  withReproduce(config.strict === true ? applyStrict(result, config) : result, config);

/** A failed check without its own reproduce command gets one from its most telling exchange. */
function withReproduce(result: CheckResult, config: RunConfig): CheckResult {
  if (result.status !== 'fail' || result.reproduce) return result;
  const exchange = [...result.evidence].reverse().find((e) => e.response) ?? result.evidence.at(-1);
  if (!exchange || exchange.failure?.startsWith('not sent')) return result;
  return { ...result, reproduce: curlFor(exchange, config.auth, config.credentialSource) };
}

export { dependantsOf, pulledInLines, selectChecks } from './selection.js';
