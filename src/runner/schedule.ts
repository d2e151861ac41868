import { PrerequisiteError, ProvcertTooSlowError } from '../checks/framework/resources.js';
import type { CheckContext, CheckDefinition } from '../checks/framework/types.js';
import { untestedText } from '../checks/outcome.js';
import type { CheckId } from '../model/check-ids.js';
import type { CheckOutcome, CheckProgress, CheckResult } from '../model/report.js';
import type { RunEvents } from '../model/run-events.js';

/** The check events of the run-event contract (model/run-events.ts) the scheduler emits. */
export type RunHooks = Pick<RunEvents, 'onCheckStart' | 'onCheckProgress' | 'onCheckEnd'>;

/** A check that is decided before it runs: skip with a reason. */
export type Verdicts = ReadonlyMap<CheckId, string>;

/** Limits how many checks send requests at once; waits (quote expiry, webhooks) do not hold a slot long. */
class Semaphore {
  private waiting: (() => void)[] = [];
  constructor(private free: number) {}
  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    return () => {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}

const skipped = (message: string): CheckOutcome => ({ status: 'skip', message, evidence: [] });

/** A check cut short by an interrupt (Ctrl-C) proves nothing either way. */
const INTERRUPTED = 'interrupted before this check finished (the run was stopped)';

/** What a check came to: its outcome, and whether the interruption cut it off (recorded, never read from its text). */
interface Ran {
  outcome: CheckOutcome;
  cutOff: boolean;
  /** The check whose unusable resource this one was skipped for (a PrerequisiteError of another check). */
  cause?: CheckId;
}

async function runOne(def: CheckDefinition, ctx: CheckContext): Promise<Ran> {
  try {
    const outcome = await def.run(ctx);
    return ctx.signal.aborted && outcome.status !== 'pass'
      ? {
          outcome: {
            ...outcome,
            status: 'skip',
            message: INTERRUPTED,
            details: [outcome.message, ...(outcome.details ?? [])],
          },
          cutOff: true,
        }
      : { outcome, cutOff: false };
  } catch (error) {
    if (ctx.signal.aborted) return { outcome: skipped(INTERRUPTED), cutOff: true };
    const done = (outcome: CheckOutcome): Ran => ({ outcome, cutOff: false });
    if (error instanceof PrerequisiteError) {
      if (error.checkId === def.id) return done(skipped(error.message));
      return { ...done(skipped(`skipped: ${error.message} (see ${error.checkId})`)), cause: error.checkId };
    }
    // provcert's own delay expired every quote: nothing was judged, so no provider failure either; not tested.
    if (error instanceof ProvcertTooSlowError) {
      const untested = {
        requirement: def.requirements[0],
        reason: error.message,
        remedy:
          'rerun on a less loaded machine, or give quotes a longer validity in the test environment (QUOTE-MIN-VALIDITY allows 5 s)',
      };
      return done({
        status: 'untested',
        message: untestedText(untested),
        evidence: error.evidence.map((o) => o.exchange),
        untested: [untested],
      });
    }
    const text = error instanceof Error ? error.message : String(error);
    return done({
      status: 'error',
      message: `the check could not run: ${text} (this is a bug in provcert; please report it with the JSON report)`,
      evidence: [],
    });
  }
}

/** The scheduled run: results in the order of the definitions, and the checks the interruption kept from running. */
export interface Scheduled {
  results: CheckResult[];
  /**
   * Not started because the run was stopped, cut off by the stop, or skipped because a check they depend on did not
   * run; in the order of the definitions. Empty when nothing was stopped.
   */
  notRun: CheckId[];
}

/**
 * Runs every check as early as its dependencies allow, with bounded concurrency. Independent checks run
 * together, so the mandated waits (quote expiry, webhook delivery) overlap the rest of the run.
 * Results come back in the order of `defs`, with the checks an interrupt kept from running.
 */
export async function scheduleChecks(
  defs: readonly CheckDefinition[],
  ctx: CheckContext,
  decided: Verdicts,
  options: {
    concurrency: number;
    hooks?: RunHooks;
    now?: () => number;
    /** Applied to each result before hooks and dependants see it (strict mode). */
    transform?: (result: CheckResult) => CheckResult;
    /** The check each decided skip is owed to (the root cause), recorded on the skipped result. */
    causes?: ReadonlyMap<CheckId, CheckId>;
  },
): Promise<Scheduled> {
  const now = options.now ?? (() => performance.now());
  const semaphore = new Semaphore(Math.max(1, options.concurrency));
  const selected = new Set(defs.map((d) => d.id));
  const tasks = new Map<CheckId, Promise<CheckResult>>();
  const stopped = new Set<CheckId>();

  const finish = (def: CheckDefinition, outcome: CheckOutcome, started: number, cause?: CheckId): CheckResult => {
    const { findings = [], ...rest } = outcome;
    const built: CheckResult = {
      id: def.id,
      title: def.title,
      rule: def.rule,
      requirements: [...def.requirements],
      ...rest,
      ...(cause ? { skippedBecauseOf: cause } : {}),
      findings: findings.map((f) => ({ ...f, requirement: f.requirement ?? def.requirements[0] })),
      durationMs: Math.round(now() - started),
    };
    const result = options.transform ? options.transform(built) : built;
    options.hooks?.onCheckEnd?.(result);
    return result;
  };

  const start = (def: CheckDefinition): Promise<CheckResult> => {
    const existing = tasks.get(def.id);
    if (existing) return existing;
    const task = (async () => {
      const reason = decided.get(def.id);
      if (reason !== undefined) return finish(def, skipped(reason), now(), options.causes?.get(def.id));
      const deps = (def.dependsOn ?? []).filter((id) => selected.has(id) && id !== def.id);
      const depResults = await Promise.all(
        deps.map((id) => tasks.get(id) ?? Promise.reject(new Error(`unknown dependency ${id}`))),
      );
      const failedDep = depResults.find((r) => r.status !== 'pass');
      if (failedDep) {
        if (stopped.has(failedDep.id)) stopped.add(def.id);
        const how =
          failedDep.status === 'skip' ? 'was skipped' : failedDep.status === 'error' ? 'could not run' : 'failed';
        // A skip owed to a failure names it; one owed to a skip names what that skip is owed to.
        const cause = failedDep.status === 'skip' ? failedDep.skippedBecauseOf : failedDep.id;
        return finish(def, skipped(`skipped: depends on ${failedDep.id}, which ${how}`), now(), cause);
      }
      await Promise.all((def.after ?? []).filter((id) => selected.has(id) && id !== def.id).map((id) => tasks.get(id)));
      const release = await semaphore.acquire();
      const started = now();
      if (ctx.signal.aborted) {
        release();
        stopped.add(def.id);
        return finish(def, skipped(INTERRUPTED), started);
      }
      // Each check reports its waits under its own id; a late report after it finished is dropped.
      let running = true;
      const progress = (update: CheckProgress): void => {
        if (running) options.hooks?.onCheckProgress?.(def.id, update);
      };
      try {
        options.hooks?.onCheckStart?.(def.id, def.title);
        const { outcome, cutOff, cause } = await runOne(def, { ...ctx, progress });
        running = false;
        if (cutOff) stopped.add(def.id);
        return finish(def, outcome, started, cause);
      } finally {
        running = false;
        release();
      }
    })();
    tasks.set(def.id, task);
    return task;
  };

  // Dependencies first, so each task finds its dependencies' promises already registered.
  const ordered = topologicalOrder(defs);
  for (const def of ordered) start(def);
  const results = await Promise.all(defs.map((d) => tasks.get(d.id) as Promise<CheckResult>));
  return { results, notRun: defs.map((d) => d.id).filter((id) => stopped.has(id)) };
}

/** Dependencies first; a cycle is a programming error in the registry. */
export function topologicalOrder(defs: readonly CheckDefinition[]): CheckDefinition[] {
  const byId = new Map(defs.map((d) => [d.id, d]));
  const out: CheckDefinition[] = [];
  const state = new Map<CheckId, 'visiting' | 'done'>();
  const visit = (def: CheckDefinition, path: CheckId[]): void => {
    const s = state.get(def.id);
    if (s === 'done') return;
    if (s === 'visiting') throw new Error(`check dependency cycle: ${[...path, def.id].join(' → ')}`);
    state.set(def.id, 'visiting');
    for (const id of [...(def.dependsOn ?? []), ...(def.after ?? [])]) {
      const dep = byId.get(id);
      if (dep && dep.id !== def.id) visit(dep, [...path, def.id]);
    }
    state.set(def.id, 'done');
    out.push(def);
  };
  for (const def of defs) visit(def, []);
  return out;
}
