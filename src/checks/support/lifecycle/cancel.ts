import { isRecord } from '../../../util/json.js';
import { describeAnswer } from '../expect.js';
import { actionPath, success } from '../tx.js';
import {
  CANCEL_REASON,
  type Cmd,
  Discarded,
  type LifecycleEnv,
  type LifecycleReal,
  LifecycleViolation,
  type RealAction,
  send,
} from './env.js';
import { canCancel, cancelled, cancelNamesAction, type LifecycleModel, stateOf } from './model.js';

/** Cancelling: the cancel command, and the clean-up that cancels what a sequence left open. */

export class CancelCommand implements Cmd {
  constructor(
    private readonly env: LifecycleEnv,
    private readonly action: number,
  ) {}
  check = (m: Readonly<LifecycleModel>): boolean => canCancel(m, this.action, this.env.allow);
  async run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    const a = r.actions[this.action] as RealAction;
    const state = stateOf(m, this.action);
    const outcome = await send(this.env, r, `cancel action ${this.action + 1} (${state})`, {
      method: 'POST',
      path: actionPath(a.id, '/cancel'),
      json: { reason: CANCEL_REASON },
    });
    const answered = success(outcome);
    const json = answered?.json;
    if (!isRecord(json) || json['success'] !== true) {
      // Refusing to cancel is the cancel check's finding; this sequence cannot reach the cancelled state.
      this.env.warn(`POST /actions/${a.id}/cancel (${state}) was answered ${describeAnswer(outcome)}`);
      throw new Discarded('the provider did not cancel');
    }
    a.cancelled = true;
    cancelled(m, this.action);
    this.env.ctx.resources.markCancelled(a.id);
    this.env.reached.add('cancel');
    if (!cancelNamesAction(a.created, json))
      throw new LifecycleViolation(
        `the cancel result of action ${a.publicId} names actionId ${JSON.stringify(json['actionId'])}: not the order creation answered`,
        'ACTION-STATUS-SAME-IDENTITY',
        outcome,
      );
  }
  toString = (): string => `cancel(action ${this.action + 1})`;
}

/** Cancels a sequence's open actions, where the provider can (never part of the steps, never judged). */
export async function cancelOpenActions(env: LifecycleEnv, real: LifecycleReal): Promise<void> {
  if (!env.allow.cancel) return;
  for (const a of real.actions) {
    if (a.cancelled) continue;
    const outcome = await env.ctx.client.send({
      method: 'POST',
      path: actionPath(a.id, '/cancel'),
      json: { reason: CANCEL_REASON },
    });
    if (success(outcome)) {
      a.cancelled = true;
      env.ctx.resources.markCancelled(a.id);
    }
  }
}
