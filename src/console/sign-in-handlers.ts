import type { RouteRequest } from '../server/route-table.js';
import { API, apiError } from './api.js';
import { type ConsoleContext, principalHome } from './context.js';
import { type Posted, signedIn } from './guards.js';
import { CONSOLE_PREFIX } from './layout.js';
import { readForm, redirect, sendPage } from './respond.js';
import {
  cookie,
  type Principal,
  randomToken,
  readCookie,
  SESSION_COOKIE,
  type Session,
  SIGN_IN_COOKIE,
  sameToken,
} from './session.js';
import { signInPage } from './sign-in-page.js';
import { SignInThrottle } from './sign-in-throttle.js';

/** GET /console/sign-in, and every refused sign-in: the form with a fresh double-submit token. */
export function showSignIn(_ctx: ConsoleContext, { res }: RouteRequest<unknown>, flash?: Session['flash']): void {
  const formToken = randomToken();
  sendPage(res, flash ? 401 : 200, signInPage(formToken, flash), {
    'set-cookie': cookie(SIGN_IN_COOKIE, formToken, 600),
  });
}

/**
 * Which principal the API takes the token for: admin when the admin list answers, an account when its own list
 * does, else the provider whose dashboard does.
 */
async function identify(ctx: ConsoleContext, token: string): Promise<Principal | string> {
  const admin = await ctx.api.call(token, 'GET', API.adminProviders(new URLSearchParams({ limit: '1' })));
  if (admin.status === 200) return { kind: 'admin' };
  const own = await ctx.api.call(token, 'GET', API.accountProviders);
  // The API accepted it as an account token; the token ledger names whose it is.
  const account = own.status === 200 ? ctx.serve?.accountOf(token) : undefined;
  if (account) return { kind: 'account', id: account.id, name: account.name };
  const me = await ctx.api.call(token, 'GET', API.me);
  // The API accepted it as a provider token; the registry names whose it is.
  const slug = me.status === 200 ? ctx.serve?.providerSlugOf(token) : undefined;
  if (slug) return { kind: 'provider', slug };
  // Said to whoever signs in, operator or provider: neither route's own 401 (the provider route's speaks of provider tokens only).
  if (admin.status === 401 && me.status === 401)
    return "the API does not accept this token: it is not the operator token (the value of PROVCERT_ADMIN_TOKEN, or of the variable serve's adminTokenEnv names), an admin or account token, nor a provider token issued at registration";
  return `the API does not accept this token (${apiError(admin.status !== 200 && admin.status !== 401 ? admin : me)})`;
}

/** POST /console/sign-in: the token the API accepts becomes a session (the cookie holds its id, never the token). */
export async function signIn(ctx: ConsoleContext, r: RouteRequest<unknown>): Promise<void> {
  if (!ctx.serve) return void signedIn(ctx, r);
  const form = await readForm(r.req);
  const expected = readCookie(r.req, SIGN_IN_COOKIE) ?? '';
  if (!form || !sameToken(form.get('csrf') ?? '', expected))
    return showSignIn(ctx, r, {
      kind: 'error',
      text: 'the sign-in form expired or was not sent from this console; try again',
    });
  const token = (form.get('token') ?? '').trim();
  if (!token) return showSignIn(ctx, r, { kind: 'error', text: 'enter a token' });
  // Counted per client address and per token: a flood from elsewhere never keeps this sign-in out.
  const keys = SignInThrottle.keys(r.req.socket.remoteAddress, token);
  if (ctx.signIns.throttled(keys))
    return showSignIn(ctx, r, { kind: 'error', text: 'too many failed sign-ins; wait a second and try again' });
  const who = await identify(ctx, token);
  if (typeof who === 'string') {
    ctx.signIns.failed(keys);
    return showSignIn(ctx, r, { kind: 'error', text: who });
  }
  const session = ctx.sessions.create(who, token);
  redirect(r.res, principalHome(who), {
    'set-cookie': [cookie(SESSION_COOKIE, session.id), cookie(SIGN_IN_COOKIE, '', 0)],
  });
}

/** POST /console/sign-out. */
export function signOut(ctx: ConsoleContext, { res, granted }: RouteRequest<unknown, Posted>): void {
  ctx.sessions.end(granted.session);
  redirect(res, `${CONSOLE_PREFIX}/sign-in`, { 'set-cookie': cookie(SESSION_COOKIE, '', 0) });
}

/** GET /console: the session's home page. */
export function home(_ctx: ConsoleContext, { res, granted }: RouteRequest<unknown, Session>): void {
  redirect(res, principalHome(granted.principal));
}
