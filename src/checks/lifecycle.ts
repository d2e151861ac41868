import type * as FastCheck from 'fast-check';
import type { RequirementId } from '../model/findings.js';
import { RUN_SETTING_DEFAULTS } from '../model/generated/run-settings.js';
import type { CheckOutcome } from '../model/report.js';
import type { SpellSetting } from '../model/setting-speller.js';
import { PrerequisiteError } from './framework/resources.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { tooLongRemedy } from './support/expiry-margin.js';
import { numericSeed } from './support/explore/orders.js';
import {
  ageQuote,
  cancelOpenActions,
  commandArbitraries,
  createOn,
  Discarded,
  directedSequence,
  finalReads,
  type LifecycleEnv,
  type LifecycleReal,
  LifecycleViolation,
  newReal,
  takeQuote,
  waitsForExpiry,
} from './support/lifecycle/commands.js';
import {
  describeSteps,
  initialModel,
  type LifecycleModel,
  reproduceSteps,
  type Step,
} from './support/lifecycle/model.js';
import { problemAt } from './support/tx.js';

/**
 * Orders the exploration may create by default (the run's lifecycleOrders raises it); shrinking a failure may create
 * SHRINK_ORDERS more.
 */
const DEFAULT_ORDERS = RUN_SETTING_DEFAULTS.lifecycleOrders;
const SHRINK_ORDERS = 12;
/** The largest budget a remedy suggests (the setting's maximum). */
const MAX_SUGGESTED_ORDERS = 1000;
/** Exploration starts no sequence after this long (run's clock); shrinking none after SHRINK_TIME_MS more. */
const TIME_CAP_MS = 40_000;
const SHRINK_TIME_MS = 30_000;
/**
 * Waits for fresh quotes: each lasts a validity of its own, so the exploration waits only for aged quotes (taken when
 * the check starts, expiring with the run's other quotes), the directed fallback at most once, and shrinking a
 * failure at most 4 times more.
 */
const DIRECTED_WAITS = 1;
const SHRINK_WAITS = 4;
/**
 * Quotes taken when the check starts: one for the up-front expiry sequence, two for generated ones that wait. Each
 * waiting sequence uses at least one, so at most three are parked and, with the one the exploration runs, at most
 * four requests are in flight.
 */
const AGED_QUOTES = 3;
/** An aged quote is used while this much of its validity is left (at most half of it, for short test validities). */
const AGED_MIN_LEFT_MS = 1_000;
const MAX_SEQUENCES = 30;
const MAX_COMMANDS = 12;
/** Longest wait for an event the model expects before the status is not compared with events. */
const EVENT_WAIT_MS = 5_000;

/** The states a run must reach before it can pass: without them the off-path rules were not tested. */
const AFTER_CANCEL = /^repeat \(cancelled/;
const AFTER_EXPIRY = /^repeat \(.*its quote expired\)$/;
const EXPIRED_CREATE = 'create on an expired quote';

interface Failure {
  violation: LifecycleViolation;
  steps: Step[];
  sequence: number;
}

interface Exploration {
  env: LifecycleEnv;
  sequences: number;
  discarded: number;
  failure?: Failure;
  /** Sequences run after the first failure (fast-check's shrinking). */
  shrinkRuns: number;
  /** Generated sequences, then a directed one for what they missed, then shrinking a failure. */
  phase: 'explore' | 'directed' | 'shrink';
  blocked?: PrerequisiteError;
  deadline: number;
  /** The order budget (lifecycleOrders), and the orders and fresh waits each phase may reach within it. */
  budget: number;
  limits: ReturnType<typeof limitsFor>;
  /** Sequences that went on waiting for their expiry while the exploration continued: judged when they end. */
  parked: Promise<Settled>[];
}

/** A sequence run in the background: its result, or the error of a bug (rethrown once awaited). */
type Settled = { result: SequenceResult } | { error: unknown };

const settle = (p: Promise<SequenceResult>): Promise<Settled> =>
  p.then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );

const exploring = (x: Exploration): boolean => x.failure === undefined;

/**
 * Orders and waits for fresh quotes each phase may reach: the exploration leaves one order to the directed fallback,
 * and waits only for aged quotes (free: they end with the run's other waits).
 */
const limitsFor = (budget: number): Record<Exploration['phase'], { orders: number; waits: number }> => ({
  explore: { orders: budget - 1, waits: 0 },
  directed: { orders: budget, waits: DIRECTED_WAITS },
  shrink: { orders: budget + SHRINK_ORDERS, waits: DIRECTED_WAITS + SHRINK_WAITS },
});

function outOfBudget(x: Exploration): boolean {
  const { ctx, orders } = x.env;
  if (ctx.signal.aborted || x.blocked) return true;
  const deadline = x.phase === 'shrink' ? x.deadline + SHRINK_TIME_MS : x.deadline;
  return ctx.clock.now() > deadline || orders.created >= x.limits[x.phase].orders;
}

type Cmd = FastCheck.AsyncCommand<LifecycleModel, LifecycleReal>;

/** fast-check wraps each command to mark what ran; the command itself, to run it again while minimizing. */
const unwrap = (c: Cmd): Cmd => (c as Cmd & { cmd?: Cmd }).cmd ?? c;

type SequenceResult = { kind: 'pass' } | { kind: 'skip' } | { kind: 'fail'; failure: Failure; ran: Cmd[] };

/** One sequence: a fresh quote and an open action, the commands, then every action read back. */
async function runSequence(
  fc: typeof FastCheck,
  x: Exploration,
  cmds: Iterable<Cmd>,
  options: { aged?: boolean; onWait?: () => void } = {},
): Promise<SequenceResult> {
  if (outOfBudget(x)) return { kind: 'skip' };
  const sequence = ++x.sequences;
  if (!exploring(x)) x.shrinkRuns++;
  const real: LifecycleReal = newReal(sequence, options);
  const model = initialModel();
  const ran: Cmd[] = [];
  // Each step is recorded as it runs (fast-check's own marks still set), so minimizing can replay exactly those.
  const recorded = [...cmds].map(
    (c): Cmd => ({
      check: (m) => c.check(m),
      run: (m, r) => {
        ran.push(unwrap(c));
        return c.run(m, r);
      },
      toString: () => String(c),
    }),
  );
  try {
    await fc.asyncModelRun(async () => {
      // Every sequence starts from an open action: the states worth exploring all begin there.
      const aged = await takeQuote(x.env, real);
      if (model.quotes[0]) model.quotes[0].aged = aged;
      await createOn(x.env, model, real, 0);
      return { model, real };
    }, recorded);
    await finalReads(x.env, model, real);
    return { kind: 'pass' };
  } catch (error) {
    if (error instanceof LifecycleViolation)
      return { kind: 'fail', failure: { violation: error, steps: real.steps, sequence }, ran };
    if (error instanceof Discarded) x.discarded++;
    else if (error instanceof PrerequisiteError) x.blocked ??= error;
    else throw error;
    return { kind: 'skip' };
  } finally {
    await cancelOpenActions(x.env, real);
  }
}

/**
 * A sequence that waits for an expiry, on aged quotes: it runs until it starts waiting, then goes on in the background
 * (parked) while the exploration draws the next sequence, so every wait of the check elapses together with the run's
 * other expiry waits. Its result once it ran to the end; undefined when it parked (judged after the exploration).
 */
async function runParkable(fc: typeof FastCheck, x: Exploration, cmds: Cmd[]): Promise<SequenceResult | undefined> {
  let park = (): void => {};
  const parked = new Promise<undefined>((resolve) => {
    park = () => resolve(undefined);
  });
  const done = runSequence(fc, x, cmds, { aged: true, onWait: park });
  const first = await Promise.race([done, parked]);
  if (first === undefined) x.parked.push(settle(done));
  return first;
}

/**
 * fast-check's shrinking drops commands from the front; this drops each remaining step in turn while the sequence
 * still fails, so no single step of the one reported can be left out (within the shrinking budget).
 */
async function minimize(fc: typeof FastCheck, x: Exploration, ran: Cmd[]): Promise<void> {
  let steps = ran;
  for (let i = steps.length - 1; i >= 0 && !outOfBudget(x); i--) {
    const without = steps.filter((_, j) => j !== i);
    const result = await runSequence(fc, x, without);
    if (result.kind !== 'fail') continue;
    x.failure = result.failure;
    steps = result.ran;
    i = Math.min(i, steps.length);
  }
}

function failed(ctx: CheckContext, f: Findings, x: Exploration, first: number | undefined): CheckOutcome {
  const { violation, steps, sequence } = x.failure as Failure;
  f.reproduce = reproduceSteps(steps);
  const origin =
    first === undefined || first === sequence
      ? `sequence #${sequence} of seed ${ctx.config.seed}`
      : `shrunk from sequence #${first} of seed ${ctx.config.seed} in ${x.shrinkRuns} sequence(s)`;
  problemAt(
    f,
    ctx,
    violation.outcome,
    `${violation.text} — shortest sequence (${steps.length} step(s), ${origin}; ${ctx.spell('seed', ctx.config.seed)} repeats it): ${describeSteps(steps)}`,
    violation.requirement,
  );
  const out = f.outcome('');
  out.details = [
    ...(out.details ?? []),
    'the steps, one request each (credential by reference):',
    ...f.reproduce.split('\n'),
  ];
  return out;
}

/** What would reach the missing states: a larger order budget when it ran out, else a faster provider. */
export function budgetRemedy(spell: SpellSetting, spent: { created: number; budget: number }): string {
  const { created, budget } = spent;
  // The exploration stops one order short of the budget (the directed fallback's).
  if (created >= budget - 1)
    return `rerun with ${spell('lifecycleOrders', Math.min(MAX_SUGGESTED_ORDERS, budget * 2))} (the exploration's order budget, ${budget}, ran out first)`;
  return `rerun where the provider answers faster (the exploration's time cap, ${TIME_CAP_MS / 1000} s, ran out after ${created} of its ${budget} orders)`;
}

export const check: CheckDefinition = {
  id: 'lifecycle',
  group: 'transactional',
  title: 'Generated action lifecycles keep idempotency, expiry and one order identity in every state',
  rule: 'Contract, Provider route behaviour rules 2 and 3: "A repeated idempotencyKey with the same payload returns the identical existing action … The same key with a changed payload gives HTTP 409 …"; "An expired quote creates no action"; "GET /actions/{id} reflects the same order identity and authoritative state as the webhook events"; in every state an action reaches (open, cancelled, after its quote expired)',
  requirements: [
    'ACTION-DUPLICATE-SAME-ACTION',
    'ACTION-KEY-REUSE-409',
    'ACTION-EXPIRED-QUOTE-NO-ACTION',
    'ACTION-STATUS-SAME-IDENTITY',
    'WEBHOOK-STATUS-REFLECTED',
    'PAYMENT-OPTIONS-ARRAY',
  ],
  needs: ['quote-math', 'payment-pending'],
  appliesTo: {
    operations: ['POST /actions'],
    profiles: ['TRANSACTIONAL'],
    description: `TRANSACTIONAL providers whose test environment is declared safe (at most ${DEFAULT_ORDERS} explored orders by default, the lifecycleOrders setting, each cancelled where the provider can)`,
  },
  waitsForQuoteExpiry: true,
  async run(ctx) {
    const f = new Findings();
    const info = await ctx.resources.providerInfo();
    const declared = new Set(info.capabilities);
    const budget = ctx.config.lifecycleOrders ?? DEFAULT_ORDERS;
    const x: Exploration = {
      env: undefined as unknown as LifecycleEnv,
      sequences: 0,
      discarded: 0,
      shrinkRuns: 0,
      phase: 'explore',
      deadline: ctx.clock.now() + TIME_CAP_MS,
      budget,
      limits: limitsFor(budget),
      parked: [],
    };
    const warned = new Set<string>();
    let canWait = false;
    x.env = {
      ctx,
      slug: info.slug,
      allow: {
        cancel: declared.has('ACTION_CANCEL'),
        paymentOptions: declared.has('PAYMENT_OPTIONS'),
        ordersLeft: () => x.limits[x.phase].orders - x.env.orders.created,
        mayWaitForExpiry: (aged) => canWait && (aged || x.env.waits.fresh < x.limits[x.phase].waits),
      },
      orders: { created: 0 },
      waits: { done: 0, fresh: 0 },
      aged: [],
      agedMinLeftMs: AGED_MIN_LEFT_MS,
      eventWaitMs: Math.min(EVENT_WAIT_MS, ctx.config.webhookTimeout),
      reached: new Set(),
      warn: (text, requirement) => {
        if (warned.has(text)) return;
        warned.add(text);
        f.warn(text, requirement);
      },
    };
    // The quotes that expire during the check are taken first, with the run's other expiring quotes (the scheduler
    // starts this check early), so every expiry wait of the run elapses together.
    const [probe, aged] = await Promise.all([
      ctx.resources.freshQuote(),
      Promise.all(Array.from({ length: AGED_QUOTES }, () => ageQuote(x.env))),
    ]);
    const validityMs = Date.parse(probe.quote.expiresAt) - probe.answeredAt;
    canWait = validityMs <= ctx.config.maxExpiryWait * 1000;
    x.env.aged = aged.filter((q) => q !== undefined);
    x.env.agedMinLeftMs = Math.min(AGED_MIN_LEFT_MS, validityMs / 2);
    // Loaded only when the check runs (the registry imports this module for every command).
    const fc: typeof FastCheck = await import('fast-check');
    // The states every run must reach (a repeat after a cancel and after the expiry, a create on an expired quote),
    // on the first aged quote: it waits in the background while the generated sequences run.
    const upfront = canWait
      ? settle(
          runSequence(
            fc,
            x,
            directedSequence(x.env, { cancel: x.env.allow.cancel, expiry: true, expiredCreate: true }),
            {
              aged: true,
            },
          ),
        )
      : undefined;
    const seed = numericSeed(ctx.config.seed);
    let firstFailing: number | undefined;
    let lastRan: Cmd[] = [];
    const property = fc.asyncProperty(
      fc.commands(commandArbitraries(fc, x.env), { maxCommands: MAX_COMMANDS, size: 'max' }),
      async (cmds) => {
        const list = [...cmds];
        const parks = x.phase === 'explore' && list.some((c) => waitsForExpiry(unwrap(c)));
        const result = parks ? await runParkable(fc, x, list) : await runSequence(fc, x, list);
        // Parked: judged once its wait is over, after the exploration.
        if (result === undefined) return;
        if (result.kind === 'skip') fc.pre(false);
        if (result.kind !== 'fail') return;
        x.phase = 'shrink';
        firstFailing ??= result.failure.sequence;
        x.failure = result.failure;
        lastRan = result.ran;
        throw result.failure.violation;
      },
    );
    // Out of budget, each further sequence is skipped at once: few skips end the exploration instead of drawing
    // thousands of sequences that send nothing.
    await fc.check(property, { seed, numRuns: MAX_SEQUENCES, maxSkipsPerRun: 1 });
    for (const settled of await Promise.all([...(upfront ? [upfront] : []), ...x.parked])) {
      if ('error' in settled) throw settled.error;
      const { result } = settled;
      if (result.kind === 'skip' || result.kind === 'pass' || x.failure) continue;
      x.phase = 'shrink';
      firstFailing = result.failure.sequence;
      x.failure = result.failure;
      lastRan = result.ran;
    }
    const missing = () => ({
      cancel: x.env.allow.cancel && ![...x.env.reached].some((s) => AFTER_CANCEL.test(s)),
      expiry: ![...x.env.reached].some((s) => AFTER_EXPIRY.test(s)),
      expiredCreate: !x.env.reached.has(EXPIRED_CREATE),
    });
    const unreached = missing();
    if (!x.failure && (unreached.cancel || unreached.expiry || unreached.expiredCreate)) {
      x.phase = 'directed';
      const result = await runSequence(fc, x, directedSequence(x.env, unreached));
      if (result.kind === 'fail') {
        x.phase = 'shrink';
        firstFailing = result.failure.sequence;
        x.failure = result.failure;
        lastRan = result.ran;
      }
    }
    if (x.failure) await minimize(fc, x, lastRan);
    if (x.failure) return failed(ctx, f, x, firstFailing);
    if (x.blocked) throw x.blocked;

    const reached = [...x.env.reached].sort();
    const summary = `${x.sequences} generated sequence(s) with seed ${ctx.config.seed} (${ctx.spell('seed', ctx.config.seed)} repeats them), ${x.env.orders.created} order(s) created and cancelled where the provider can, ${x.env.waits.done} expiry wait(s); reached: ${reached.join(', ') || 'nothing'}`;
    const left = missing();
    const notReached: Array<[string, RequirementId]> = [
      ...(left.cancel ? [['a repeat after a cancel', 'ACTION-DUPLICATE-SAME-ACTION'] as [string, RequirementId]] : []),
      ...(left.expiry
        ? [['a repeat after the quote expired', 'ACTION-DUPLICATE-SAME-ACTION'] as [string, RequirementId]]
        : []),
      ...(left.expiredCreate
        ? [['new action on an expired quote', 'ACTION-EXPIRED-QUOTE-NO-ACTION'] as [string, RequirementId]]
        : []),
    ];
    // Not tested is never passed (DECISIONS.md, Verdicts when provcert cannot finish a test): the run is INCOMPLETE.
    const validityS = Math.ceil(validityMs / 1000);
    const remedy = canWait
      ? budgetRemedy(ctx.spell, { created: x.env.orders.created, budget: x.budget })
      : tooLongRemedy(ctx.spell, validityS);
    for (const [state, requirement] of notReached)
      f.untested({
        requirement,
        reason: canWait
          ? `the lifecycle exploration reached no ${state} within its budget (${summary})`
          : `the lifecycle exploration reached no ${state}: quote ${probe.quote.id} is valid for ${validityS} s, longer than ${ctx.spell('maxExpiryWait', ctx.config.maxExpiryWait)}`,
        remedy,
      });
    if (x.discarded > 0)
      f.note(`${x.discarded} sequence(s) set aside (a quote expired on the way, or a cancel was refused)`);
    return f.outcome(summary);
  },
};
