import { curlFor } from '../../http/reproduce.js';
import type { HttpOutcome, HttpResponse } from '../../http/types.js';
import type { RequirementId } from '../../model/findings.js';
import { isRecord } from '../../util/json.js';
import type { CheckContext } from '../framework/types.js';
import type { Findings } from '../outcome.js';
import { keepEvidence } from './evidence.js';

/** Helpers shared by the transactional checks (quote, actions, cancel, webhook). */

export const actionPath = (id: string, suffix = ''): string => `/actions/${encodeURIComponent(id)}${suffix}`;

/** The response when it is a 2xx success, else undefined. */
export const success = (outcome: HttpOutcome): HttpResponse | undefined =>
  outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300 ? outcome : undefined;

/** id and publicId of an action-shaped JSON answer, when present. */
export function actionIdentity(json: unknown): { id?: string; publicId?: string } {
  if (!isRecord(json)) return {};
  const id = typeof json['id'] === 'string' ? json['id'] : undefined;
  const publicId = typeof json['publicId'] === 'string' ? json['publicId'] : undefined;
  return { ...(id !== undefined ? { id } : {}), ...(publicId !== undefined ? { publicId } : {}) };
}

/**
 * Record a problem shown by one exchange: keeps the exchange as evidence and, for the first such problem,
 * a command that sends the same request again (credential by reference only).
 */
export function problemAt(
  f: Findings,
  ctx: Pick<CheckContext, 'config'>,
  outcome: HttpOutcome,
  text: string,
  requirement?: RequirementId,
): false {
  keepEvidence(f, outcome);
  markReproduce(f, ctx, outcome);
  return f.problem(text, requirement);
}

/** The first failing exchange of a check becomes its reproduce command (credential by reference only). */
export function markReproduce(f: Findings, ctx: Pick<CheckContext, 'config'>, outcome: HttpOutcome): void {
  f.reproduce ??= curlFor(outcome.exchange, ctx.config.auth, ctx.config.credentialSource);
}

/** Tell the operator provcert re-quoted (its own delay expired the first quote), with the expired answers as evidence. */
export function noteRequoted(
  f: Findings,
  requoted: { note: string; evidence: readonly HttpOutcome[] } | undefined,
): void {
  if (!requoted) return;
  for (const outcome of requoted.evidence) keepEvidence(f, outcome);
  f.note(requoted.note);
}

/** `sleep` until the clock reaches `until` (epoch ms), cancellable through the run's signal. */
export async function sleepUntil(ctx: Pick<CheckContext, 'clock' | 'signal'>, until: number): Promise<void> {
  const ms = until - ctx.clock.now();
  if (ms > 0) await ctx.clock.sleep(ms, ctx.signal);
}
