import type * as FastCheck from 'fast-check';
import { CreateCommand, RepeatCommand } from './actions.js';
import { CancelCommand } from './cancel.js';
import type { Cmd, LifecycleEnv, LifecycleReal } from './env.js';
import { AfterExpiryCommand } from './expiry.js';
import { CHANGES, type Change, type LifecycleModel, MAX_QUOTES } from './model.js';
import { QuoteCommand } from './quote.js';
import { PaymentOptionsCommand, StatusCommand } from './status.js';

/** The lifecycle commands drawn by fast-check, the directed sequence and the final reads of every sequence. */

type FC = typeof FastCheck;

/**
 * The command arbitraries of one check, with weights: a sequence starts with an open action (its setup creates one),
 * and the steps that judge an invariant (repeats, statuses) or reach another state (cancel, the wait for expiry) are
 * drawn more often than the steps that only add a quote or an order, so a small order budget reaches every state.
 */
export function commandArbitraries(fc: FC, env: LifecycleEnv): FastCheck.Arbitrary<Cmd>[] {
  // Mostly the first action: every sequence has it, so fewer drawn steps are skipped.
  const action = fc.constantFrom(0, 0, 0, 1);
  // "after the quote expired" shrinks to false: a failure that needs no wait is shown without one.
  const afterExpiry = fc.constantFrom(false, true);
  const repeat = fc
    .tuple(action, fc.constantFrom<Change | 'none'>('none', 'none', 'none', ...CHANGES), afterExpiry)
    .map(([a, change, after]) => expiring(env, new RepeatCommand(env, a, change), after));
  const create = fc
    .tuple(fc.nat({ max: MAX_QUOTES - 1 }), afterExpiry)
    .map(([q, after]) => expiring(env, new CreateCommand(env, q), after));
  const status = action.map((a) => new StatusCommand(env, a));
  const cancel = action.map((a) => new CancelCommand(env, a));
  return [
    fc.constant(new QuoteCommand(env)),
    create,
    repeat,
    repeat,
    repeat,
    repeat,
    status,
    status,
    cancel,
    cancel,
    action.map((a) => new PaymentOptionsCommand(env, a)),
  ];
}

const expiring = (env: LifecycleEnv, then: RepeatCommand | CreateCommand, after: boolean): Cmd =>
  after ? new AfterExpiryCommand(env, then) : then;

/**
 * The end of every sequence: each action repeated (same key, same body), read back, and its payment options read
 * (when declared), so a state a step left wrong is seen even when no step after it looked. Part of the sequence:
 * a failure here is shrunk like any other.
 */
export async function finalReads(env: LifecycleEnv, m: LifecycleModel, r: LifecycleReal): Promise<void> {
  for (let i = 0; i < m.actions.length; i++) {
    await new RepeatCommand(env, i, 'none').run(m, r);
    await new StatusCommand(env, i).run(m, r);
    if (env.allow.paymentOptions) await new PaymentOptionsCommand(env, i).run(m, r);
  }
}

/**
 * A directed sequence for the states every run must reach: cancel the action (when the provider can) and repeat its
 * key with a changed payload, repeat it after its quote expired, create on the expired quote; the final reads then
 * repeat it in that state too. It runs first, on an aged quote (its wait overlaps the run's), and again after the
 * exploration only when it could not reach them.
 */
export function directedSequence(
  env: LifecycleEnv,
  reach: { cancel: boolean; expiry: boolean; expiredCreate: boolean },
): Cmd[] {
  const steps: Cmd[] = [];
  // After the cancel, the key with a changed payload too: the one order the sequence has covers both repeats there.
  if (reach.cancel) steps.push(new CancelCommand(env, 0), new RepeatCommand(env, 0, 'customer name'));
  if (reach.expiry) steps.push(new AfterExpiryCommand(env, new RepeatCommand(env, 0, 'none')));
  if (reach.expiredCreate) steps.push(new AfterExpiryCommand(env, new CreateCommand(env, 0)));
  return steps;
}

export { createOn } from './actions.js';
export { cancelOpenActions } from './cancel.js';
export { Discarded, type LifecycleEnv, type LifecycleReal, LifecycleViolation, newReal } from './env.js';
export { waitsForExpiry } from './expiry.js';
export { ageQuote, takeQuote } from './quote.js';
