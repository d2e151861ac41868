import type * as FastCheck from 'fast-check';
import { curlFor } from '../../../http/reproduce.js';
import type { HttpOutcome, ProviderRequest } from '../../../http/types.js';
import type { RequirementId } from '../../../model/findings.js';
import { isRecord } from '../../../util/json.js';
import type { CheckContext } from '../../framework/types.js';
import type { QuoteView } from '../../framework/views.js';
import { describeAnswer } from '../expect.js';
import { actionIdentity, success } from '../tx.js';
import type { Allowances, LifecycleModel, Step } from './model.js';

/**
 * What every lifecycle command shares (issue 33 item 3): the check's environment and budget, one sequence's real side,
 * how a step is sent and recorded, and the two ways a sequence ends early (a violation, a discarded sequence).
 */

export const CANCEL_REASON = 'CUSTOMER_CANCELLED: provcert lifecycle exploration test order, cancelled by the test';

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

export interface RealAction {
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

export type Cmd = FastCheck.AsyncCommand<LifecycleModel, LifecycleReal>;

export async function send(env: LifecycleEnv, real: LifecycleReal, label: string, request: ProviderRequest) {
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
export function named(outcome: HttpOutcome): string {
  const json = success(outcome)?.json;
  if (!isRecord(json)) return '';
  const name = json['publicId'] ?? json['id'];
  return typeof name === 'string' ? ` ${name}` : '';
}

export const actionName = (a: RealAction): string => (a.publicId === a.id ? a.id : `${a.publicId} (id ${a.id})`);

export function noteOrder(env: LifecycleEnv, outcome: HttpOutcome): { id?: string; publicId?: string } {
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
