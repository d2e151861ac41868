import type { ProviderView, TransitionView } from '../server/core-routes/views.js';
import type { RouteRequest } from '../server/route-table.js';
import { str } from '../util/json.js';
import { API, type ApiAnswer, apiError } from './api.js';
import { type ConsoleContext, principalHome } from './context.js';
import { answerAs, providerOf } from './data.js';
import { CONFIRM_FIELD } from './decision-forms.js';
import type { PostedFor } from './guards.js';
import { redirect } from './respond.js';
import type { Session } from './session.js';

// The console's actions: each one API call, its answer shown in words on the page it redirects to.

type SlugPost = RouteRequest<{ slug: string }, PostedFor>;

/** The flash of an action: the new review status when the API answered it, else its error in words. */
function outcome(answer: ApiAnswer, done: string): Session['flash'] {
  if (answer.status >= 200 && answer.status < 300) {
    const status =
      str(answerAs<ProviderView>(providerOf(answer.body)).reviewStatus) ??
      str(answerAs<TransitionView>(answer.body).to);
    return { kind: 'ok', text: status ? `${done}: review status is now ${status}` : done };
  }
  return { kind: 'error', text: apiError(answer) };
}

/** POST …/certify: starts a certification in the background; the page shows its progress. */
export function certify(ctx: ConsoleContext, { res, granted: { session, slug } }: SlugPost): void {
  const started = ctx.runner.start(slug, session.token, (ok, text) => {
    session.flash = { kind: ok ? 'ok' : 'error', text };
  });
  if (!started) session.flash = { kind: 'error', text: `a certification of ${slug} started here is already running` };
  // Back where the click was: the progress shows in place of the button.
  redirect(res, `${principalHome({ kind: 'provider', slug })}#certifications`);
}

/** The API body of a review decision posted from the provider page. */
function decisionBody(form: URLSearchParams): Record<string, unknown> {
  const decision = form.get('decision') ?? '';
  const text = (name: string): string | undefined => form.get(name)?.trim() || undefined;
  const changes = (form.get('requiredChanges') ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (decision === 'APPROVE' || decision === 'ACTIVATE') return { decision };
  return {
    decision,
    reasonCode: text('reasonCode') ?? '',
    reason: text('reason') ?? '',
    ...(changes.length > 0 ? { requiredChanges: changes } : {}),
    ...(text('internalNote') ? { internalNote: text('internalNote') } : {}),
  };
}

/** Approve, Activate and Reopen change a provider at once: they are sent only with their confirmation box ticked. */
const NEEDS_CONFIRMATION = ['APPROVE', 'ACTIVATE', 'REOPEN'];

/** The refusal of a confirmed move posted without its box ticked (a script-less client, a crafted post). */
function unconfirmed(form: URLSearchParams, move: string): Session['flash'] | undefined {
  if (!NEEDS_CONFIRMATION.includes(move) || form.get(CONFIRM_FIELD) === move) return undefined;
  return { kind: 'error', text: `${move} was not sent: tick its confirmation box first` };
}

/** POST …/decide (operator): a review decision. */
export async function decide(ctx: ConsoleContext, { res, granted: { session, form, slug } }: SlugPost): Promise<void> {
  const decision = form.get('decision') ?? '';
  const refused = unconfirmed(form, decision);
  if (refused) {
    session.flash = refused;
    return redirect(res, principalHome({ kind: 'provider', slug }));
  }
  const answer = await ctx.api.call(session.token, 'POST', API.review(slug), decisionBody(form));
  session.flash = outcome(answer, `${decision} recorded`);
  redirect(res, principalHome({ kind: 'provider', slug }));
}

/** POST …/submit-review (operator): the latest passing certification goes to review. */
export async function submitReview(ctx: ConsoleContext, { res, granted: { session, slug } }: SlugPost): Promise<void> {
  const answer = await ctx.api.call(session.token, 'POST', API.submitReview(slug));
  session.flash = outcome(answer, 'submitted for review');
  redirect(res, principalHome({ kind: 'provider', slug }));
}

/** POST …/reopen (operator): back to draft. */
export async function reopen(ctx: ConsoleContext, { res, granted: { session, form, slug } }: SlugPost): Promise<void> {
  const refused = unconfirmed(form, 'REOPEN');
  if (refused) {
    session.flash = refused;
    return redirect(res, principalHome({ kind: 'provider', slug }));
  }
  const answer = await ctx.api.call(session.token, 'POST', API.reopen(slug));
  session.flash = outcome(answer, 'reopened as draft');
  redirect(res, principalHome({ kind: 'provider', slug }));
}
