import type * as FastCheck from 'fast-check';
import { isLoopbackHost } from '../http/host.js';
import type { CheckOutcome } from '../model/report.js';
import { PrerequisiteError } from './framework/resources.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { numericSeed } from './support/explore/orders.js';
import {
  cancelOpenActions,
  commandArbitraries,
  createOn,
  Discarded,
  type LifecycleEnv,
  type LifecycleReal,
  LifecycleViolation,
  newReal,
  takeQuote,
} from './support/lifecycle/commands.js';
import { describeSteps, initialModel, reproduceSteps, type Step } from './support/lifecycle/model.js';
import { problemAt } from './support/tx.js';

/** Orders the exploration may create; shrinking a failure may create SHRINK_ORDERS more. */
export const LIFECYCLE_ORDER_BUDGET = 6;
const SHRINK_ORDERS = 12;
/** Exploration starts no sequence after this long (run's clock); shrinking none after SHRINK_TIME_MS more. */
const TIME_CAP_MS = 40_000;
const SHRINK_TIME_MS = 30_000;
/** Expiry waits: each lasts a quote's validity, so exploration waits at most twice, shrinking at most 4 times more. */
const EXPLORE_WAITS = 2;
const SHRINK_WAITS = 4;
const MAX_SEQUENCES = 30;
const MAX_COMMANDS = 12;
/** Longest wait for an event the model expects before the status is not compared with events. */
const EVENT_WAIT_MS = 5_000;
const EXPIRY_MARGIN_MS = 400;
const LOOPBACK_EXPIRY_MARGIN_MS = 50;

/** The states a run must reach before it can pass: without them the off-path rules were not tested. */
const AFTER_CANCEL = 'repeat (cancelled)';
const AFTER_EXPIRY = /^repeat \(.*its quote expired\)$/;

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
  blocked?: PrerequisiteError;
  deadline: number;
}

const exploring = (x: Exploration): boolean => x.failure === undefined;

function outOfBudget(x: Exploration): boolean {
  const { ctx, orders } = x.env;
  if (ctx.signal.aborted || x.blocked) return true;
  if (exploring(x)) return ctx.clock.now() > x.deadline || orders.created >= LIFECYCLE_ORDER_BUDGET;
  return ctx.clock.now() > x.deadline + SHRINK_TIME_MS || orders.created >= LIFECYCLE_ORDER_BUDGET + SHRINK_ORDERS;
}

/** One generated sequence: a fresh quote, then the commands; its open actions are cancelled after. */
async function runSequence(fc: typeof FastCheck, x: Exploration, cmds: Iterable<FastCheck.AsyncCommand<never, never>>) {
  if (outOfBudget(x)) fc.pre(false);
  const sequence = ++x.sequences;
  if (!exploring(x)) x.shrinkRuns++;
  const real: LifecycleReal = newReal(sequence);
  try {
    await fc.asyncModelRun(
      async () => {
        // Every sequence starts from an open action: the states worth exploring all begin there.
        const model = initialModel();
        await takeQuote(x.env, real);
        await createOn(x.env, model, real, 0);
        return { model, real };
      },
      cmds as Iterable<FastCheck.AsyncCommand<ReturnType<typeof initialModel>, LifecycleReal>>,
    );
  } catch (error) {
    if (error instanceof LifecycleViolation) {
      x.failure = { violation: error, steps: real.steps, sequence };
      throw error;
    }
    if (error instanceof Discarded) x.discarded++;
    else if (error instanceof PrerequisiteError) x.blocked ??= error;
    else throw error;
    fc.pre(false);
  } finally {
    await cancelOpenActions(x.env, real);
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
  out.details = [...(out.details ?? []), 'the steps, one request each (credential by reference):', ...f.reproduce.split('\n')];
  return out;
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
  appliesTo: {
    operations: ['POST /actions'],
    profiles: ['TRANSACTIONAL'],
    description: `TRANSACTIONAL providers whose test environment is declared safe (at most ${LIFECYCLE_ORDER_BUDGET} explored orders, each cancelled where the provider can)`,
  },
  async run(ctx) {
    const f = new Findings();
    const info = await ctx.resources.providerInfo();
    const declared = new Set(info.capabilities);
    const probe = await ctx.resources.freshQuote();
    const validityMs = Date.parse(probe.quote.expiresAt) - probe.answeredAt;
    const x: Exploration = {
      env: undefined as unknown as LifecycleEnv,
      sequences: 0,
      discarded: 0,
      shrinkRuns: 0,
      deadline: ctx.clock.now() + TIME_CAP_MS,
    };
    const warned = new Set<string>();
    const waitsAllowed = (): number => (exploring(x) ? EXPLORE_WAITS : EXPLORE_WAITS + SHRINK_WAITS);
    const canWait = validityMs <= ctx.config.maxExpiryWaitS * 1000;
    x.env = {
      ctx,
      slug: info.slug,
      allow: {
        cancel: declared.has('ACTION_CANCEL'),
        paymentOptions: declared.has('PAYMENT_OPTIONS'),
        ordersLeft: () =>
          (exploring(x) ? LIFECYCLE_ORDER_BUDGET : LIFECYCLE_ORDER_BUDGET + SHRINK_ORDERS) - x.env.orders.created,
        mayWaitForExpiry: () => canWait && x.env.waits.done < waitsAllowed(),
      },
      orders: { created: 0 },
      waits: { done: 0 },
      expiryMarginMs: isLoopbackHost(new URL(ctx.config.baseUrl).hostname)
        ? LOOPBACK_EXPIRY_MARGIN_MS
        : EXPIRY_MARGIN_MS,
      eventWaitMs: Math.min(EVENT_WAIT_MS, ctx.config.webhookTimeoutMs),
      reached: new Set(),
      warn: (text, requirement) => {
        if (warned.has(text)) return;
        warned.add(text);
        f.warn(text, requirement);
      },
    };
    // Loaded only when the check runs (the registry imports this module for every command).
    const fc = await import('fast-check');
    const seed = numericSeed(ctx.config.seed);
    let firstFailing: number | undefined;
    const property = fc.asyncProperty(fc.commands(commandArbitraries(fc, x.env), { maxCommands: MAX_COMMANDS, size: 'max' }), (cmds) =>
      runSequence(fc, x, cmds as Iterable<FastCheck.AsyncCommand<never, never>>).catch((error: unknown) => {
        if (error instanceof LifecycleViolation) firstFailing ??= x.sequences;
        throw error;
      }),
    );
    // Out of budget, each further sequence is skipped at once: few skips end the exploration instead of drawing
    // thousands of sequences that send nothing.
    await fc.check(property, { seed, numRuns: MAX_SEQUENCES, maxSkipsPerRun: 1 });
    if (x.failure) return failed(ctx, f, x, firstFailing);
    if (x.blocked) throw x.blocked;

    const reached = [...x.env.reached].sort();
    const summary = `${x.sequences} generated sequence(s) with seed ${ctx.config.seed} (${ctx.spell('seed', ctx.config.seed)} repeats them), ${x.env.orders.created} order(s) created and cancelled where the provider can, ${x.env.waits.done} expiry wait(s); reached: ${reached.join(', ') || 'nothing'}`;
    const missing: string[] = [];
    if (x.env.allow.cancel && !x.env.reached.has(AFTER_CANCEL)) missing.push('a repeat after a cancel');
    if (!reached.some((s) => AFTER_EXPIRY.test(s))) missing.push('a repeat after the quote expired');
    if (missing.length > 0) {
      const why = canWait
        ? `the order budget (${LIFECYCLE_ORDER_BUDGET}) or the time cap (${TIME_CAP_MS / 1000} s) ran out first`
        : `quote ${probe.quote.id} is valid for ${Math.ceil(validityMs / 1000)} s, longer than ${ctx.spell('maxExpiryWait', ctx.config.maxExpiryWaitS)}: raise it (e.g. ${ctx.spell('maxExpiryWait', Math.ceil(validityMs / 1000) + 10)}) or shorten the quote validity of the test environment`;
      // Not tested is never passed (DECISIONS.md, Verdicts when provcert cannot finish a test).
      return {
        status: 'error',
        message: `not tested: the lifecycle exploration reached no ${missing.join(' and no ')}, because ${why}; ${summary}`,
        evidence: [],
        ...(f.outcome('').warnings ? { warnings: f.outcome('').warnings } : {}),
      };
    }
    if (x.discarded > 0) f.note(`${x.discarded} sequence(s) set aside (a quote expired on the way, or a cancel was refused)`);
    return f.outcome(summary);
  },
};
