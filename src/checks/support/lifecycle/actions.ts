import { PrerequisiteError } from '../../framework/resources.js';
import type { QuoteView } from '../../framework/views.js';
import { describeAnswer, errorCode } from '../expect.js';
import { actionIdentity, success } from '../tx.js';
import {
  actionName,
  type Cmd,
  Discarded,
  type LifecycleEnv,
  type LifecycleReal,
  LifecycleViolation,
  noteOrder,
  type RealAction,
  send,
} from './env.js';
import {
  type Change,
  canCreate,
  changedBody,
  created,
  hasAction,
  identityDifferences,
  type LifecycleModel,
  stateOf,
} from './model.js';

/** POST /actions commands: create with a fresh key, repeat a key with the same or a changed payload. */

const REUSED_CODE = 'IDEMPOTENCY_KEY_REUSED_WITH_DIFFERENT_PAYLOAD';

/** POST /actions with a fresh key on quote `index`: a new action on a valid quote, nothing on an expired one. */
export async function createOn(env: LifecycleEnv, m: LifecycleModel, r: LifecycleReal, index: number): Promise<void> {
  const quote = r.quotes[index] as QuoteView;
  const model = m.quotes[index];
  const key = env.ctx.resources.idempotencyKey(`lifecycle-${r.sequence}-${++r.keys}`);
  const body = env.ctx.resources.actionBody(quote, key);
  const expired = model?.expired === true;
  const used = model?.usedBy !== undefined ? ` and already used by action ${model.usedBy + 1}` : '';
  const label = `create an action on quote ${index + 1}${expired ? ` (expired${used})` : ''} with a fresh key`;
  const outcome = await send(env, r, label, { method: 'POST', path: '/actions', json: body });
  const answered = success(outcome);
  if (expired) {
    env.reached.add('create on an expired quote');
    if (answered) {
      const made = noteOrder(env, outcome);
      throw new LifecycleViolation(
        `POST /actions with quote ${quote.id} (expired at ${quote.expiresAt}${used}) was answered ${answered.status}${made.id ? ` and created action ${made.publicId ?? made.id}` : ''}; an expired quote creates no action`,
        'ACTION-EXPIRED-QUOTE-NO-ACTION',
        outcome,
      );
    }
    if (errorCode(outcome) !== 'QUOTE_EXPIRED')
      env.warn(
        `POST /actions with the expired quote ${quote.id}${used} was refused with ${describeAnswer(outcome)}, not QUOTE_EXPIRED`,
      );
    return;
  }
  const identity = actionIdentity(answered?.json);
  if (!answered || identity.id === undefined) {
    // A quote that expired on the way (provcert's delay) gives the sequence no ground; any other refusal of a
    // valid order is the creating checks' finding (payment-pending), and this check cannot go on without orders.
    if (errorCode(outcome) === 'QUOTE_EXPIRED') throw new Discarded('the quote expired before the action');
    throw new PrerequisiteError('payment-pending', `POST /actions answered ${describeAnswer(outcome)}`);
  }
  noteOrder(env, outcome);
  created(m, index);
  r.actions.push({
    id: identity.id,
    publicId: identity.publicId ?? identity.id,
    created: answered.json as Record<string, unknown>,
    body,
    cancelled: false,
  });
}

export class CreateCommand implements Cmd {
  constructor(
    private readonly env: LifecycleEnv,
    private readonly quote: number,
  ) {}
  check = (m: Readonly<LifecycleModel>): boolean => canCreate(m, this.quote, this.env.allow);
  run = (m: LifecycleModel, r: LifecycleReal): Promise<void> => createOn(this.env, m, r, this.quote);
  toString = (): string => `create(quote ${this.quote + 1})`;
}

export class RepeatCommand implements Cmd {
  constructor(
    private readonly env: LifecycleEnv,
    private readonly action: number,
    private readonly change: Change | 'none',
  ) {}
  check = (m: Readonly<LifecycleModel>): boolean => hasAction(m, this.action);
  async run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    const a = r.actions[this.action] as RealAction;
    const state = stateOf(m, this.action);
    const same = this.change === 'none';
    const body = this.change === 'none' ? a.body : changedBody(a.body, this.change);
    const what = same
      ? `repeating POST /actions with the key and body of action ${actionName(a)} (${state})`
      : `repeating POST /actions with the key of action ${actionName(a)} (${state}) and a changed ${this.change}`;
    this.env.reached.add(`${same ? 'repeat' : 'changed repeat'} (${state})`);
    const label = same
      ? `repeat action ${this.action + 1} (${state}): same key, same body`
      : `repeat action ${this.action + 1} (${state}): same key, changed ${this.change}`;
    const outcome = await send(this.env, r, label, { method: 'POST', path: '/actions', json: body });
    const answered = success(outcome);
    const identity = actionIdentity(answered?.json);
    const other = identity.id !== undefined && identity.id !== a.id;
    if (other) noteOrder(this.env, outcome);
    if (same) {
      if (!answered)
        throw new LifecycleViolation(
          `${what} was answered ${describeAnswer(outcome)}; expected the identical existing action`,
          'ACTION-DUPLICATE-SAME-ACTION',
          outcome,
        );
      if (other)
        throw new LifecycleViolation(
          `${what} returned action ${identity.publicId ?? identity.id}: a retry created a second order`,
          'ACTION-DUPLICATE-SAME-ACTION',
          outcome,
        );
      const differences = identityDifferences(a.created, answered.json);
      if (differences.length > 0)
        throw new LifecycleViolation(
          `${what} returned it with ${differences.join(', ')}; expected the identical existing action`,
          'ACTION-DUPLICATE-SAME-ACTION',
          outcome,
        );
      return;
    }
    if (answered)
      throw new LifecycleViolation(
        `${what} was answered ${answered.status} ${other ? `and created action ${identity.publicId ?? identity.id}` : 'with the existing action'}; expected 409 ${REUSED_CODE}`,
        'ACTION-KEY-REUSE-409',
        outcome,
      );
    if (outcome.kind !== 'response' || outcome.status !== 409 || errorCode(outcome) !== REUSED_CODE)
      throw new LifecycleViolation(
        `${what} was answered ${describeAnswer(outcome)}; expected 409 ${REUSED_CODE}`,
        'ACTION-KEY-REUSE-409',
        outcome,
      );
  }
  toString = (): string =>
    `repeat(action ${this.action + 1}${this.change === 'none' ? '' : `, changed ${this.change}`})`;
}
