import type { ServerResponse } from 'node:http';
import { sendError, sendJson } from '../http-io.js';
import { parseDecision } from '../review/decision-input.js';
import { illegalTransitionMessage, type Trigger } from '../review/lifecycle.js';
import type { CoreContext, SlugRequest } from './context.js';
import type { Operator } from './guards.js';
import type { TransitionOutcome } from './registry.js';
import { readJsonBody } from './request-input.js';

function answerTransition(
  ctx: CoreContext,
  res: ServerResponse,
  slug: string,
  trigger: Trigger,
  outcome: TransitionOutcome,
): void {
  if (outcome.kind === 'not-found') return sendError(res, 404, 'NOT_FOUND', `no provider "${slug}" is registered`);
  if (outcome.kind === 'illegal')
    return sendError(res, 409, 'CONFLICT', illegalTransitionMessage(slug, trigger, outcome.current));
  if (outcome.kind === 'guard-failed') return sendError(res, 409, 'CONFLICT', outcome.message);
  ctx.log?.(`provider ${slug}: ${trigger} ${outcome.entry.from} → ${outcome.entry.to}`);
  sendJson(res, 200, {
    slug,
    trigger,
    from: outcome.entry.from,
    to: outcome.entry.to,
    status: outcome.provider.status,
    at: outcome.entry.at,
    historySeq: outcome.entry.seq,
  });
}

/** POST /admin/providers/{slug}/review (operator): a review decision, as the lifecycle table allows it. */
export async function review(ctx: CoreContext, { req, res, params: { slug } }: SlugRequest<Operator>): Promise<void> {
  const body = await readJsonBody(req, res);
  if (!body.ok) return;
  const parsed = parseDecision(body.value);
  if (!parsed.ok)
    return sendError(res, 400, 'INVALID_ARGUMENT', `invalid review decision: ${parsed.problems.join('; ')}`);
  const { decision, ...details } = parsed.value;
  const outcome = await ctx.registry.transition(slug, decision, { actor: 'admin', ...details }, ctx.now());
  answerTransition(ctx, res, slug, decision, outcome);
}

/** POST /admin/providers/{slug}/reopen (operator): back to DRAFT, earlier certifications invalidated. */
export async function reopen(ctx: CoreContext, { req, res, params: { slug } }: SlugRequest<Operator>): Promise<void> {
  const body = await readJsonBody(req, res);
  if (!body.ok) return;
  const note = (body.value as { internalNote?: unknown } | null)?.internalNote;
  if (note !== undefined && (typeof note !== 'string' || note.length > 4_000))
    return sendError(res, 400, 'INVALID_ARGUMENT', 'internalNote must be a text of at most 4000 characters');
  const outcome = await ctx.registry.transition(
    slug,
    'REOPEN',
    { actor: 'admin', ...(typeof note === 'string' ? { internalNote: note } : {}) },
    ctx.now(),
  );
  answerTransition(ctx, res, slug, 'REOPEN', outcome);
}
