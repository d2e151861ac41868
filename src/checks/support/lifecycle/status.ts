import { isAccepted, type ReceivedWebhook } from '../../../model/webhooks.js';
import { isRecord } from '../../../util/json.js';
import { isOwnEvent, latestStatus } from '../../webhook.js';
import { describeAnswer } from '../expect.js';
import { actionPath } from '../tx.js';
import { type Cmd, type LifecycleEnv, type LifecycleReal, LifecycleViolation, type RealAction, send } from './env.js';
import { hasAction, identityDifferences, type LifecycleModel, stateOf } from './model.js';

/** The read commands: GET /actions/{id} against the creation answer and the events, and the payment options. */

/** How long a status step waits for an event newer than the one that disagrees with GET (events may lag). */
const NEWER_EVENT_WAIT_MS = 1_000;

export class StatusCommand implements Cmd {
  constructor(
    private readonly env: LifecycleEnv,
    private readonly action: number,
  ) {}
  check = (m: Readonly<LifecycleModel>): boolean => hasAction(m, this.action);
  async run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    const { env } = this;
    const a = r.actions[this.action] as RealAction;
    const state = stateOf(m, this.action);
    env.reached.add(`status (${state})`);
    const ours = (w: ReceivedWebhook): boolean =>
      isAccepted(w) &&
      isOwnEvent(w, env.slug, [a]) &&
      (w.event?.['actionId'] === a.id || w.event?.['actionId'] === a.publicId);
    // The events this state must have produced: one about the action, and CANCELLED once it was cancelled.
    const expected = (w: ReceivedWebhook): boolean =>
      ours(w) && (m.actions[this.action]?.status !== 'cancelled' || w.event?.['newStatus'] === 'CANCELLED');
    const arrived = await this.waitFor(expected);
    const path = actionPath(a.id);
    const label = `GET action ${this.action + 1} (${state})`;
    let outcome = await send(env, r, label, { method: 'GET', path });
    const what = `GET /actions/${a.id} of action ${a.publicId} (${state})`;
    const json = outcome.kind === 'response' && outcome.status === 200 ? outcome.json : undefined;
    if (!isRecord(json))
      throw new LifecycleViolation(
        `${what} was answered ${describeAnswer(outcome)}; expected the action`,
        'ACTION-STATUS-SAME-IDENTITY',
        outcome,
      );
    const differences = identityDifferences(a.created, json);
    if (differences.length > 0)
      throw new LifecycleViolation(
        `${what} reports ${differences.join(', ')}: not the order creation answered`,
        'ACTION-STATUS-SAME-IDENTITY',
        outcome,
      );
    if (!arrived) return;
    let status = json['status'];
    let latest = latestStatus(env.ctx.webhooks.all().filter(ours));
    if (latest && latest.status !== status) {
      // A newer event may be on its way: wait for one that says what GET says, then read GET again.
      const newer = (w: ReceivedWebhook): boolean =>
        ours(w) && w.event?.['newStatus'] === status && w.seq > (latest?.event.seq ?? 0);
      await this.waitFor(newer, Math.min(env.eventWaitMs, NEWER_EVENT_WAIT_MS));
      outcome = await send(env, r, `${label}, again after the events settled`, { method: 'GET', path });
      status = outcome.kind === 'response' && isRecord(outcome.json) ? outcome.json['status'] : undefined;
      latest = latestStatus(env.ctx.webhooks.all().filter(ours));
    }
    if (latest && latest.status !== status)
      throw new LifecycleViolation(
        `${what} says status ${JSON.stringify(status)}; the latest event about it (${String(latest.event.event?.['eventId'])}) says newStatus ${latest.status}`,
        'WEBHOOK-STATUS-REFLECTED',
        outcome,
      );
  }
  /**
   * Waits for an event; an expected one (no `ms`) that stays away ends the waiting for the whole check: the webhook
   * check judges missing events, and each status step would otherwise wait again.
   */
  private async waitFor(predicate: (w: ReceivedWebhook) => boolean, ms?: number): Promise<boolean> {
    const { env } = this;
    if (env.ctx.webhooks.all().some(predicate)) return true;
    if (env.eventWaitMs <= 0) return false;
    const w = await env.ctx.webhooks.waitFor(predicate, ms ?? env.eventWaitMs, env.ctx.signal);
    if (!w && ms === undefined) env.eventWaitMs = 0;
    return w !== undefined;
  }
  toString = (): string => `status(action ${this.action + 1})`;
}

export class PaymentOptionsCommand implements Cmd {
  constructor(
    private readonly env: LifecycleEnv,
    private readonly action: number,
  ) {}
  check = (m: Readonly<LifecycleModel>): boolean => this.env.allow.paymentOptions && hasAction(m, this.action);
  async run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    const a = r.actions[this.action] as RealAction;
    const state = stateOf(m, this.action);
    this.env.reached.add(`payment options (${state})`);
    const outcome = await send(this.env, r, `payment options of action ${this.action + 1} (${state})`, {
      method: 'GET',
      path: actionPath(a.id, '/payment-options'),
    });
    const json = outcome.kind === 'response' && outcome.status === 200 ? outcome.json : undefined;
    if (!Array.isArray(json))
      throw new LifecycleViolation(
        `GET /actions/${a.id}/payment-options of action ${a.publicId} (${state}) was answered ${describeAnswer(outcome)}${isRecord(json) ? ` with an object (keys ${Object.keys(json).join(', ')})` : ''}; expected a top-level array of PaymentOption`,
        'PAYMENT-OPTIONS-ARRAY',
        outcome,
      );
  }
  toString = (): string => `payment-options(action ${this.action + 1})`;
}
