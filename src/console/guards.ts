import type { RouteHandler, RouteRequest } from '../server/route-table.js';
import type { ConsoleContext, ConsoleHandler, ConsoleServe } from './context.js';
import { notFound } from './context.js';
import { html } from './html.js';
import { CONSOLE_PREFIX, page } from './layout.js';
import { readForm, redirect, sendPage } from './respond.js';
import { cookie, SESSION_COOKIE, type Session, sameToken } from './session.js';

// The console's guards: each answers the request itself when it refuses (503, sign-in, 403, 404) and otherwise
// hands the handler what it learned as `granted`, so no handler works the session out again.

/** A signed-in session allowed to see the slug of the path. */
export interface Viewer {
  readonly session: Session;
  readonly slug: string;
}

/** A signed-in form post with its CSRF token checked. */
export interface Posted {
  readonly session: Session;
  readonly form: URLSearchParams;
}

/** A posted form about the slug of the path, from a session allowed to act on it. */
export interface PostedFor extends Posted {
  readonly slug: string;
}

type SlugParams = { readonly slug: string };

/** The session of the request, or a redirect to sign-in (undefined). */
export function signedIn(ctx: ConsoleContext, r: RouteRequest<unknown, unknown>): Session | undefined {
  if (!ctx.serve) {
    sendPage(r.res, 503, page('Starting', html`<p>The core is starting; try again in a moment.</p>`));
    return undefined;
  }
  const session = ctx.sessions.get(r.req);
  // A provider or account session lasts only while its token still names it (not revoked, expired or removed).
  if (session && !stillValid(ctx.serve, session)) {
    ctx.sessions.end(session);
  } else if (session) return session;
  redirect(r.res, `${CONSOLE_PREFIX}/sign-in`, { 'set-cookie': cookie(SESSION_COOKIE, '', 0) });
  return undefined;
}

function stillValid(serve: ConsoleServe, session: Session): boolean {
  const p = session.principal;
  if (p.kind === 'provider') return serve.providerSlugOf(session.token) === p.slug;
  if (p.kind === 'account') return serve.accountOf(session.token)?.id === p.id;
  return true;
}

/**
 * A provider session may see its own provider only, an account session its account's; anything else is "not found",
 * as the API says.
 */
export function mayView(ctx: ConsoleContext, session: Session, slug: string): boolean {
  const p = session.principal;
  if (p.kind === 'admin') return true;
  if (p.kind === 'account') return ctx.serve?.ownerOf(slug) === p.id;
  return p.slug === slug;
}

const withGranted = <P, G>(r: RouteRequest<P>, granted: G): RouteRequest<P, G> => ({ ...r, granted });

/** Pages for any signed-in session. */
export function signedInOnly<P>(ctx: ConsoleContext, handler: ConsoleHandler<P, Session>): RouteHandler<P> {
  return (r) => {
    const session = signedIn(ctx, r);
    if (session) return handler(ctx, withGranted(r, session));
  };
}

/** Pages of one provider: the operator sees any, a provider session its own; another is "not found" (`refusal`). */
export function viewerOf<P extends SlugParams>(
  ctx: ConsoleContext,
  handler: ConsoleHandler<P, Viewer>,
  refusal = (slug: string): string => `No provider "${slug}" is yours to see.`,
): RouteHandler<P> {
  return (r) => {
    const session = signedIn(ctx, r);
    if (!session) return;
    const slug = r.params.slug;
    if (!mayView(ctx, session, slug)) return notFound(r.res, session, refusal(slug));
    return handler(ctx, withGranted(r, { session, slug }));
  };
}

/** The signed-in form post with its CSRF token checked, or a 403 page answered. */
async function posted(ctx: ConsoleContext, r: RouteRequest<unknown>): Promise<Posted | undefined> {
  const session = signedIn(ctx, r);
  if (!session) return undefined;
  const form = await readForm(r.req);
  if (form && sameToken(form.get('csrf') ?? '', session.csrf)) return { session, form };
  sendPage(
    r.res,
    403,
    page(
      'Refused',
      html`<p>The form was not sent from this console (missing or wrong CSRF token). Reload the page and try again.</p>`,
      session,
    ),
  );
  return undefined;
}

/** Form posts of any signed-in session. */
export function formPost<P>(ctx: ConsoleContext, handler: ConsoleHandler<P, Posted>): RouteHandler<P> {
  return async (r) => {
    const form = await posted(ctx, r);
    if (form) return handler(ctx, withGranted(r, form));
  };
}

/**
 * Form posts about one provider. `who`: 'viewer' lets any session that may see the slug act (its refusal says
 * so), 'operator' only the operator, 'onboarding' the operator and the provider's account (the message is the
 * refusal to anyone else).
 */
export function formPostFor<P extends SlugParams>(
  ctx: ConsoleContext,
  who: { viewer: true } | { operator: string } | { onboarding: string },
  handler: ConsoleHandler<P, PostedFor>,
): RouteHandler<P> {
  return async (r) => {
    const form = await posted(ctx, r);
    if (!form) return;
    const { session } = form;
    const slug = r.params.slug;
    if ('operator' in who && session.principal.kind !== 'admin') return notFound(r.res, session, who.operator);
    const onboards = session.principal.kind !== 'provider' && mayView(ctx, session, slug);
    if ('onboarding' in who && !onboards) return notFound(r.res, session, who.onboarding);
    if ('viewer' in who && !mayView(ctx, session, slug))
      return notFound(r.res, session, `No provider "${slug}" is yours to see.`);
    return handler(ctx, withGranted(r, { ...form, slug }));
  };
}
