import type { ServerResponse } from 'node:http';
import type { RouteRequest } from '../server/route-table.js';
import type { RunningServe } from '../server/serve.js';
import { type ConsoleApi, loopbackApi } from './api.js';
import { CertifyRunner } from './certify-runner.js';
import { html } from './html.js';
import { CONSOLE_PREFIX, page } from './layout.js';
import { redirect, sendPage } from './respond.js';
import { cookie, type Principal, SESSION_COOKIE, type Session, SessionStore } from './session.js';
import { SignInThrottle } from './sign-in-throttle.js';
import { SingleUseForms } from './single-use.js';

/** What the console needs of the running `serve`: the core's address (for the API over loopback) and arrivals, and who a provider token names. */
export type ConsoleServe = Pick<RunningServe, 'providerSlugOf' | 'accountOf' | 'ownerOf'> & {
  core: Pick<RunningServe['core'], 'url' | 'subscribe'>;
};

/**
 * What every console handler shares: the API over loopback, the sessions, the certifications started here,
 * the rotate form's one-time tokens, and `serve` once attached. Handlers are functions of `(context, request)`.
 */
export interface ConsoleContext {
  /** Set when `serve` listens; before that every page answers 503. */
  serve: ConsoleServe | undefined;
  /** The operator token: a provider session's pages are read with it, confined to its own slug. */
  operatorToken: string | undefined;
  readonly api: ConsoleApi;
  readonly sessions: SessionStore;
  readonly runner: CertifyRunner;
  /** The rotate form's one-time tokens: a re-sent rotation post is refused, never rotated again. */
  readonly rotationForms: SingleUseForms;
  /** Failed sign-ins, throttled. */
  readonly signIns: SignInThrottle;
  /** Live streams open now (bounded: each holds a connection and wakes on every webhook). */
  openStreams: number;
}

/** `now`: the sign-in throttle's clock (tests hold it still, so a throttle is proven without timing). */
export function createConsoleContext(now: () => number = Date.now): ConsoleContext {
  const api = loopbackApi(() => ctx.serve?.core.url ?? '');
  const ctx: ConsoleContext = {
    serve: undefined,
    operatorToken: undefined,
    api,
    sessions: new SessionStore(),
    runner: new CertifyRunner(api),
    rotationForms: new SingleUseForms(),
    signIns: new SignInThrottle(now),
    openStreams: 0,
  };
  return ctx;
}

/** A console handler: what its guard learned (the session, the posted form, the slug it may see) is `request.granted`. */
export type ConsoleHandler<Params, Granted> = (
  ctx: ConsoleContext,
  request: RouteRequest<Params, Granted>,
) => Promise<void> | void;

export const principalHome = (p: Principal): string =>
  p.kind === 'provider' ? `${CONSOLE_PREFIX}/providers/${encodeURIComponent(p.slug)}` : `${CONSOLE_PREFIX}/providers`;

export const notFound = (res: ServerResponse, session: Session | undefined, what: string): void =>
  sendPage(res, 404, page('Not found', html`<p>${what}</p><p><a href="${CONSOLE_PREFIX}/">Back</a></p>`, session));

/** The API stopped accepting the session's token: the session ends, the browser goes to sign-in. */
export function expired(ctx: ConsoleContext, res: ServerResponse, session: Session): void {
  ctx.sessions.end(session);
  redirect(res, `${CONSOLE_PREFIX}/sign-in`, { 'set-cookie': cookie(SESSION_COOKIE, '', 0) });
}

export const takeFlash = (session: Session): Session['flash'] => {
  const flash = session.flash;
  delete session.flash;
  return flash;
};

/**
 * The token the console reads a session's pages with: the operator's own; for a provider or account session the
 * operator token, confined by the visibility guard to its own slugs (the API's read routes of a provider's detail
 * take no other). What a session changes (certify, submit) it changes with its own token.
 */
export const readToken = (ctx: ConsoleContext, session: Session): string =>
  session.principal.kind === 'admin' ? session.token : (ctx.operatorToken ?? session.token);
