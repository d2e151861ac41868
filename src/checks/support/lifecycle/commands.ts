import type * as FastCheck from 'fast-check';
import { curlFor } from '../../../http/reproduce.js';
import type { HttpOutcome, ProviderRequest } from '../../../http/types.js';
import type { RequirementId } from '../../../model/findings.js';
import { isAccepted, type ReceivedWebhook } from '../../../model/webhooks.js';
import { isRecord } from '../../../util/json.js';
import { PrerequisiteError } from '../../framework/resources.js';
import type { CheckContext } from '../../framework/types.js';
import type { QuoteView } from '../../framework/views.js';
import { isOwnEvent, latestStatus } from '../../webhook.js';
import { describeAnswer, errorCode } from '../expect.js';
import { expiredFrom } from '../expiry-margin.js';
import { actionIdentity, actionPath, sleepUntil, success } from '../tx.js';
import {
  type Allowances,
  CHANGES,
  type Change,
  canCancel,
  canCreate,
  cancelled,
  cancelNamesAction,
  canQuote,
  canWaitForExpiry,
  changedBody,
  created,
  expiredAll,
  hasAction,
  identityDifferences,
  type LifecycleModel,
  MAX_QUOTES,
  type Step,
  stateOf,
} from './model.js';

type FC = typeof FastCheck;

/** How long a status step waits for an event newer than the one that disagrees with GET (events may lag). */
const NEWER_EVENT_WAIT_MS = 1_000;
const REUSED_CODE = 'IDEMPOTENCY_KEY_REUSED_WITH_DIFFERENT_PAYLOAD';
const CANCEL_REASON = 'CUSTOMER_CANCELLED: provcert lifecycle exploration test order, cancelled by the test';

/** An answer that breaks a lifecycle invariant: fast-check shrinks the sequence that led to it. */
export class LifecycleViolation extends Error {
  override readonly name = 'LifecycleViolation';
  constructor(
    readonly text: string,
    readonly requirement: RequirementId,
    readonly outcome: HttpOutcome,
  ) {
    super(text);
  }
}

/** A sequence that cannot be judged (provcert's own delay expired a quote, a cancel refused): not counted. */
export class Discarded extends Error {
  override readonly name = 'Discarded';
}

/** What every command of one check shares: the run, the allowances, the budget spent, what was reached. */
export interface LifecycleEnv {
  ctx: CheckContext;
  allow: Allowances;
  slug: string;
  /** Orders created by the check so far (its budget counts them). */
  orders: { created: number };
  /** Expiry waits done, and those of them for a fresh quote (each costs a validity of its own). */
  waits: { done: number; fresh: number };
  /**
   * Quotes taken when the check started, with the run's other expiring quotes; a sequence that waits for an expiry
   * takes its quotes from here, so its wait ends with theirs. Each is used once.
   */
  aged: AgedQuote[];
  /** An aged quote is only used while this much of its validity is left (its action must be created in time). */
  agedMinLeftMs: number;
  /** Longest wait for an event the model expects; 0 once events stayed away (the webhook check owns that). */
  eventWaitMs: number;
  /** The states and steps sequences reached ("repeat after cancel"…), for the summary and the minimum. */
  reached: Set<string>;
  warn: (text: string, requirement?: RequirementId) => void;
}

/** A quote taken ahead of its sequence, with its answer (for the step and its curl line). */
export interface AgedQuote {
  quote: QuoteView;
  outcome: HttpOutcome;
}

interface RealAction {
  id: string;
  publicId: string;
  created: Record<string, unknown>;
  body: Record<string, unknown>;
  cancelled: boolean;
}

/** The provider's side of one sequence: its quotes and actions as answered, and every step sent. */
export interface LifecycleReal {
  sequence: number;
  keys: number;
  steps: Step[];
  quotes: QuoteView[];
  actions: RealAction[];
  /** The sequence waits for an expiry: it takes aged quotes while there are some. */
  aged: boolean;
  /** Told when the sequence starts its expiry wait (the exploration goes on with the next sequence meanwhile). */
  onWait?: () => void;
}

export const newReal = (sequence: number, options: { aged?: boolean; onWait?: () => void } = {}): LifecycleReal => ({
  sequence,
  keys: 0,
  steps: [],
  quotes: [],
  actions: [],
  aged: options.aged === true,
  ...(options.onWait ? { onWait: options.onWait } : {}),
});

type Cmd = FastCheck.AsyncCommand<LifecycleModel, LifecycleReal>;

async function send(env: LifecycleEnv, real: LifecycleReal, label: string, request: ProviderRequest) {
  const outcome = await env.ctx.client.send(request);
  const { auth: authMethod, credentialSource } = env.ctx.config;
  real.steps.push({
    label,
    answer: `${request.method} ${request.path} → ${describeAnswer(outcome)}${named(outcome)}`,
    curl: curlFor(outcome.exchange, authMethod, credentialSource),
  });
  return outcome;
}

/** " DK-1001" when the answer is an action or a quote, for the step line. */
function named(outcome: HttpOutcome): string {
  const json = success(outcome)?.json;
  if (!isRecord(json)) return '';
  const name = json['publicId'] ?? json['id'];
  return typeof name === 'string' ? ` ${name}` : '';
}

/** Takes a quote ahead of its sequence (when the check starts); undefined when the quote route fails. */
export async function ageQuote(env: LifecycleEnv): Promise<AgedQuote | undefined> {
  const outcome = await env.ctx.client.send({ method: 'POST', path: '/quote', json: await quoteBody(env) });
  const json = success(outcome)?.json;
  if (!isRecord(json) || typeof json['id'] !== 'string' || typeof json['expiresAt'] !== 'string') return undefined;
  return { quote: json as unknown as QuoteView, outcome };
}

/** An aged quote with enough validity left for an action, taken out of the pool. */
function takeAged(env: LifecycleEnv): AgedQuote | undefined {
  const now = env.ctx.clock.now();
  while (env.aged.length > 0) {
    const next = env.aged.shift() as AgedQuote;
    if (Date.parse(next.quote.expiresAt) - now >= env.agedMinLeftMs) return next;
  }
  return undefined;
}

/**
 * Takes a quote for the selection (an aged one for a sequence that waits, while there are some); returns whether it
 * is aged. A quote route that fails is quote-math's finding, not this check's.
 */
export async function takeQuote(env: LifecycleEnv, real: LifecycleReal): Promise<boolean> {
  const label = `quote ${real.quotes.length + 1}`;
  const aged = real.aged ? takeAged(env) : undefined;
  if (aged) {
    const { auth: authMethod, credentialSource } = env.ctx.config;
    real.steps.push({
      label,
      answer: `POST /quote → ${describeAnswer(aged.outcome)}${named(aged.outcome)}`,
      curl: curlFor(aged.outcome.exchange, authMethod, credentialSource),
    });
    real.quotes.push(aged.quote);
    return true;
  }
  const body = await quoteBody(env);
  const outcome = await send(env, real, label, {
    method: 'POST',
    path: '/quote',
    json: body,
  });
  const json = success(outcome)?.json;
  if (!isRecord(json) || typeof json['id'] !== 'string' || typeof json['expiresAt'] !== 'string')
    throw new PrerequisiteError(
      'quote-math',
      `POST /quote answered ${describeAnswer(outcome)}; no quote to explore with`,
    );
  real.quotes.push(json as unknown as QuoteView);
  return false;
}

async function quoteBody(env: LifecycleEnv): Promise<Record<string, unknown>> {
  const selection = await env.ctx.resources.selection();
  return {
    providerSlug: env.slug,
    ...(selection.locationId ? { locationId: selection.locationId } : {}),
    items: selection.items,
  };
}

const actionName = (a: RealAction): string => (a.publicId === a.id ? a.id : `${a.publicId} (id ${a.id})`);

function noteOrder(env: LifecycleEnv, outcome: HttpOutcome): { id?: string; publicId?: string } {
  const identity = actionIdentity(success(outcome)?.json);
  if (identity.id !== undefined) {
    env.orders.created++;
    env.ctx.resources.noteCreatedAction({
      id: identity.id,
      ...(identity.publicId !== undefined ? { publicId: identity.publicId } : {}),
    });
  }
  return identity;
}

class QuoteCommand implements Cmd {
  constructor(private readonly env: LifecycleEnv) {}
  check = (m: Readonly<LifecycleModel>): boolean => canQuote(m);
  async run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    const aged = await takeQuote(this.env, r);
    m.quotes.push({ expired: false, aged });
  }
  toString = (): string => 'quote';
}

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

class CreateCommand implements Cmd {
  constructor(
    private readonly env: LifecycleEnv,
    private readonly quote: number,
  ) {}
  check = (m: Readonly<LifecycleModel>): boolean => canCreate(m, this.quote, this.env.allow);
  run = (m: LifecycleModel, r: LifecycleReal): Promise<void> => createOn(this.env, m, r, this.quote);
  toString = (): string => `create(quote ${this.quote + 1})`;
}

class RepeatCommand implements Cmd {
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

class StatusCommand implements Cmd {
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

class CancelCommand implements Cmd {
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

/** Waits, by the run's clock, until every quote of the sequence has expired (once per sequence). */
async function waitForExpiry(env: LifecycleEnv, m: LifecycleModel, r: LifecycleReal): Promise<void> {
  const pending = r.quotes.filter((_, i) => m.quotes[i]?.expired === false);
  const until = expiredFrom(Math.max(...pending.map((q) => Date.parse(q.expiresAt))), env.ctx.config.baseUrl);
  if (!Number.isFinite(until)) throw new Discarded('a quote expiry is not readable');
  env.waits.done++;
  if (!m.quotes.every((q) => q.expired || q.aged)) env.waits.fresh++;
  r.onWait?.();
  env.ctx.progress?.({
    text: `lifecycle: waiting for ${pending.length} quote(s) to expire`,
    remainingMs: Math.max(0, until - env.ctx.clock.now()),
  });
  // The run's clock: other checks go on meanwhile, and a test clock advances it at once.
  await sleepUntil(env.ctx, until);
  r.steps.push({ label: 'wait until every quote has expired', answer: `until ${new Date(until).toISOString()}` });
  expiredAll(m);
}

/** "Wait for expiry, then repeat or create": the wait happens once per sequence; later ones find it done. */
class AfterExpiryCommand implements Cmd {
  constructor(
    private readonly env: LifecycleEnv,
    private readonly then: RepeatCommand | CreateCommand,
  ) {}
  check = (m: Readonly<LifecycleModel>): boolean =>
    (m.waited || canWaitForExpiry(m, this.env.allow)) && this.then.check(expiredCopy(m));
  async run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    if (!m.waited) await waitForExpiry(this.env, m, r);
    await this.then.run(m, r);
  }
  toString = (): string => `after-expiry(${this.then.toString()})`;
}

/** Whether a command of a sequence waits for an expiry (such a sequence takes aged quotes). */
export const waitsForExpiry = (cmd: Cmd): boolean => cmd instanceof AfterExpiryCommand;

/** The model as it is once the wait is done, for the following step's precondition. */
const expiredCopy = (m: Readonly<LifecycleModel>): LifecycleModel => ({
  quotes: m.quotes.map((q) => ({ ...q, expired: true })),
  actions: m.actions.map((a) => ({ ...a })),
  waited: true,
});

class PaymentOptionsCommand implements Cmd {
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
