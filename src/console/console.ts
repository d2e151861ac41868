import type { ServerResponse } from 'node:http';
import type { RunReport } from '../model/report.js';
import { renderHtml } from '../report/html.js';
import { HTML_SCRIPT, HTML_STYLE } from '../report/html-style.js';
import type {
  CertificationView,
  EventListView,
  ProviderListView,
  ProviderView,
  TransitionView,
} from '../server/core-routes/views.js';
import { type Route, type RouteRequest, route } from '../server/route-table.js';
import type { RunningServe } from '../server/serve.js';
import { isRecord, records, str } from '../util/json.js';
import { API, type ApiAnswer, apiError, type ConsoleApi, loopbackApi } from './api.js';
import { CONSOLE_SCRIPT, CONSOLE_STYLE, cspHash } from './assets.js';
import { CertifyRunner } from './certify-runner.js';
import {
  answerAs,
  certificationRows,
  eventRow,
  history,
  type ProviderRow,
  providerOf,
  providerRow,
  registrationFields,
  rotationShown,
  visibleReason,
} from './data.js';
import { html } from './html.js';
import { CONSOLE_PREFIX, page } from './layout.js';
import { configuredPage, providerPage } from './provider-page.js';
import { FILTERS, type Filters, providersPage } from './providers-page.js';
import { readForm, redirect, sendAsset, sendPage } from './respond.js';
import { notRotatedPage, rotatedPage } from './rotation-page.js';
import {
  cookie,
  type Principal,
  randomToken,
  readCookie,
  SESSION_COOKIE,
  type Session,
  SessionStore,
  SIGN_IN_COOKIE,
  sameToken,
} from './session.js';
import { signInPage } from './sign-in-page.js';
import { SingleUseForms } from './single-use.js';
import { streamProvider } from './stream.js';

/** What the console needs of the running `serve`: the core's address (for the API over loopback) and arrivals, and who a provider token names. */
export type ConsoleServe = Pick<RunningServe, 'providerSlugOf'> & {
  core: Pick<RunningServe['core'], 'url' | 'subscribe'>;
};

export interface ProvcertConsole {
  /** Lines for the core's route table, all under /console. */
  readonly routes: readonly Route[];
  /**
   * Connect to `serve` once it listens (before that, every console page answers 503). `operatorToken`
   * reads a provider session's own provider: the API's read routes take only the operator token, and the
   * console confines such a session to its slug and never shows it an internal note.
   */
  attach(serve: ConsoleServe, operatorToken: string | undefined): void;
}

/** Failed sign-ins allowed per second: guessing a token costs time. */
const FAILED_SIGN_INS_PER_SECOND = 5;
/** Events shown on a provider page at first (newest); the live stream adds the rest. */
const EVENTS_SHOWN = 200;
const MAX_EVENT_PAGES = 20;
/** Providers per page of the table (the API's largest page). */
const PROVIDERS_PAGE = 100;
/** Live streams open at once: each holds a connection and wakes on every webhook. */
const MAX_STREAMS = 200;

type SlugRequest = RouteRequest<{ slug: string }>;

const principalHome = (p: Principal): string =>
  p.kind === 'admin' ? `${CONSOLE_PREFIX}/providers` : `${CONSOLE_PREFIX}/providers/${encodeURIComponent(p.slug)}`;

/**
 * The operator console, served by `provcert serve` under /console: server-rendered pages of what the
 * core API answers, for the operator (admin token) and for providers (their own token, their own data).
 */
export function createConsole(): ProvcertConsole {
  let serve: ConsoleServe | undefined;
  let operatorToken: string | undefined;
  const api: ConsoleApi = loopbackApi(() => serve?.core.url ?? '');
  const sessions = new SessionStore();
  const runner = new CertifyRunner(api);
  /** The rotate form's one-time tokens: a re-sent rotation post is refused, never rotated again. */
  const rotationForms = new SingleUseForms();
  /** Times of recent failed sign-ins: at FAILED_SIGN_INS_PER_SECOND within a second, the next attempt waits. */
  const failedSignIns: number[] = [];
  let openStreams = 0;
  const signInsThrottled = (): boolean => {
    const now = Date.now();
    while (failedSignIns.length > 0 && now - (failedSignIns[0] ?? 0) >= 1_000) failedSignIns.shift();
    return failedSignIns.length >= FAILED_SIGN_INS_PER_SECOND;
  };
  const reportCsp = `default-src 'none'; style-src ${cspHash(HTML_STYLE)}; script-src ${cspHash(HTML_SCRIPT)}; img-src data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`;

  const notFound = (res: ServerResponse, session: Session | undefined, what: string): void =>
    sendPage(res, 404, page('Not found', html`<p>${what}</p><p><a href="${CONSOLE_PREFIX}/">Back</a></p>`, session));

  /** The session of the request, or a redirect to sign-in (undefined). */
  function signedIn(r: RouteRequest<unknown>): Session | undefined {
    if (!serve) {
      sendPage(r.res, 503, page('Starting', html`<p>The core is starting; try again in a moment.</p>`));
      return undefined;
    }
    const session = sessions.get(r.req);
    // A provider session lasts only while its token still names its provider (not rotated, not removed).
    if (session?.principal.kind === 'provider' && serve.providerSlugOf(session.token) !== session.principal.slug) {
      sessions.end(session);
    } else if (session) return session;
    redirect(r.res, `${CONSOLE_PREFIX}/sign-in`, { 'set-cookie': cookie(SESSION_COOKIE, '', 0) });
    return undefined;
  }

  /** A provider session may see its own provider only; anything else is "not found", as the API says. */
  function mayView(session: Session, slug: string): boolean {
    return session.principal.kind === 'admin' || session.principal.slug === slug;
  }

  /** A signed-in form post with its CSRF token checked. */
  async function postedForm(
    r: RouteRequest<unknown>,
  ): Promise<{ session: Session; form: URLSearchParams } | undefined> {
    const session = signedIn(r);
    if (!session) return undefined;
    const form = await readForm(r.req);
    const csrf = form?.get('csrf') ?? '';
    if (!form || !sameToken(csrf, session.csrf)) {
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
    return { session, form };
  }

  const takeFlash = (session: Session): Session['flash'] => {
    const flash = session.flash;
    delete session.flash;
    return flash;
  };

  // --- sign-in and sign-out ---

  function showSignIn({ res }: RouteRequest<unknown>, flash?: Session['flash']): void {
    const formToken = randomToken();
    sendPage(res, flash ? 401 : 200, signInPage(formToken, flash), {
      'set-cookie': cookie(SIGN_IN_COOKIE, formToken, 600),
    });
  }

  /** Which principal the API takes the token for: admin when the admin list answers, else the provider whose dashboard does. */
  async function identify(token: string): Promise<Principal | string> {
    const admin = await api.call(token, 'GET', API.adminProviders(new URLSearchParams({ limit: '1' })));
    if (admin.status === 200) return { kind: 'admin' };
    const me = await api.call(token, 'GET', API.me);
    // The API accepted it as a provider token; the registry names whose it is.
    const slug = me.status === 200 ? serve?.providerSlugOf(token) : undefined;
    if (slug) return { kind: 'provider', slug };
    return `the API does not accept this token (${apiError(me.status === 401 ? me : admin)})`;
  }

  async function signIn(r: RouteRequest<unknown>): Promise<void> {
    if (!serve) return void signedIn(r);
    const form = await readForm(r.req);
    const expected = readCookie(r.req, SIGN_IN_COOKIE) ?? '';
    if (!form || !sameToken(form.get('csrf') ?? '', expected))
      return showSignIn(r, {
        kind: 'error',
        text: 'the sign-in form expired or was not sent from this console; try again',
      });
    const token = (form.get('token') ?? '').trim();
    if (!token) return showSignIn(r, { kind: 'error', text: 'enter a token' });
    if (signInsThrottled())
      return showSignIn(r, { kind: 'error', text: 'too many failed sign-ins; wait a second and try again' });
    const who = await identify(token);
    if (typeof who === 'string') {
      failedSignIns.push(Date.now());
      return showSignIn(r, { kind: 'error', text: who });
    }
    const session = sessions.create(who, token);
    redirect(r.res, principalHome(who), {
      'set-cookie': [cookie(SESSION_COOKIE, session.id), cookie(SIGN_IN_COOKIE, '', 0)],
    });
  }

  async function signOut(r: RouteRequest<unknown>): Promise<void> {
    const posted = await postedForm(r);
    if (!posted) return;
    sessions.end(posted.session);
    redirect(r.res, `${CONSOLE_PREFIX}/sign-in`, { 'set-cookie': cookie(SESSION_COOKIE, '', 0) });
  }

  function home(r: RouteRequest<unknown>): void {
    const session = signedIn(r);
    if (session) redirect(r.res, principalHome(session.principal));
  }

  // --- pages ---

  async function providers(r: RouteRequest<unknown>): Promise<void> {
    const session = signedIn(r);
    if (!session) return;
    if (session.principal.kind !== 'admin') return redirect(r.res, principalHome(session.principal));
    const filters: Filters = {};
    const query = new URLSearchParams();
    for (const name of FILTERS) {
      const value = r.query().get(name)?.trim();
      if (value) {
        filters[name] = value;
        query.set(name, value);
      }
    }
    const offset = Number(r.query().get('offset') ?? '0');
    const from = Number.isSafeInteger(offset) && offset > 0 ? offset : 0;
    query.set('limit', String(PROVIDERS_PAGE));
    query.set('offset', String(from));
    const answer = await api.call(session.token, 'GET', API.adminProviders(query));
    if (answer.status === 401) return expired(r.res, session);
    const flash = answer.status === 200 ? takeFlash(session) : { kind: 'error' as const, text: apiError(answer) };
    const rows = await Promise.all(
      records(answerAs<ProviderListView>(answer.body).data)
        .map(providerRow)
        .map((p) => withLastCertification(session.token, p)),
    );
    const listed = answerAs<ProviderListView>(answer.body).total;
    const total = typeof listed === 'number' ? listed : rows.length;
    sendPage(r.res, 200, providersPage(session, { rows, total, offset: from, limit: PROVIDERS_PAGE }, filters, flash));
  }

  /** The list answers no certification: the newest comes from the provider's certifications route. */
  async function withLastCertification(token: string, p: ProviderRow): Promise<ProviderRow> {
    const answer = await api.call(token, 'GET', API.certifications(p.slug));
    const [latest] = answer.status === 200 ? certificationRows(answer.body) : [];
    return latest ? { ...p, lastVerdict: latest.verdict, lastCertifiedAt: latest.createdAt } : p;
  }

  function expired(res: ServerResponse, session: Session): void {
    sessions.end(session);
    redirect(res, `${CONSOLE_PREFIX}/sign-in`, { 'set-cookie': cookie(SESSION_COOKIE, '', 0) });
  }

  /** All listed events (up to a bound), newest first. */
  async function eventsOf(
    token: string,
    slug: string,
  ): Promise<{ answer: ApiAnswer; items: Record<string, unknown>[]; total: number }> {
    const items: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    let answer: ApiAnswer = { status: 0, body: {} };
    for (let pageNo = 0; pageNo < MAX_EVENT_PAGES; pageNo++) {
      answer = await api.call(token, 'GET', API.events(slug, cursor));
      if (answer.status !== 200) break;
      const list = answerAs<EventListView>(answer.body);
      items.push(...records(list.data));
      cursor = str(list.nextCursor);
      if (!cursor) break;
    }
    const listed = answerAs<EventListView>(answer.body).total;
    const total = typeof listed === 'number' ? listed : items.length;
    return { answer, items: items.reverse(), total };
  }

  /**
   * The token the console reads a session's pages with: the operator's own; for a provider session the
   * operator token, confined by mayView to the provider's own slug (the API's read routes take no other).
   */
  const readToken = (session: Session): string =>
    session.principal.kind === 'admin' ? session.token : (operatorToken ?? session.token);

  async function provider(r: SlugRequest): Promise<void> {
    const session = signedIn(r);
    if (!session) return;
    const slug = r.params.slug;
    if (!mayView(session, slug)) return notFound(r.res, session, `No provider "${slug}" is yours to see.`);
    const token = readToken(session);
    const [detail, events] = await Promise.all([
      api.call(token, 'GET', API.adminProvider(slug)),
      eventsOf(token, slug),
    ]);
    if (detail.status === 401 && session.principal.kind === 'admin') return expired(r.res, session);
    const newestSeq = events.items.length > 0 ? eventRow(events.items[0] as Record<string, unknown>).seq : 0;
    const eventsData = {
      slug,
      events: events.items.slice(0, EVENTS_SHOWN).map(eventRow),
      eventsTotal: events.total,
      streamAfter: newestSeq,
      running: runner.progress(slug),
    };
    // Unknown to the registry yet listed by the events route: a slug serve was started with (its settings' providers).
    if (detail.status === 404 && events.answer.status === 200 && session.principal.kind === 'admin')
      return sendPage(r.res, 200, configuredPage(session, eventsData, apiError(detail)));
    if (detail.status === 404) return notFound(r.res, session, `No provider "${slug}" is registered.`);
    const unavailable: string[] = [];
    if (detail.status !== 200) unavailable.push(`Registration: ${apiError(detail)}`);
    if (events.answer.status !== 200) unavailable.push(`Webhook events: ${apiError(events.answer)}`);
    const p = providerOf(detail.body);
    const row = providerRow(p);
    const body = providerPage(
      session,
      {
        ...eventsData,
        name: row.name,
        status: row.status,
        reviewStatus: row.reviewStatus,
        certified: row.certified,
        registration: registrationFields(p),
        reason: visibleReason(p),
        certifications: certificationRows(detail.body),
        // Internal notes are the operators' only.
        history: history(detail.body, session.principal.kind === 'admin'),
        unavailable,
        // The operator rotates any provider, a provider session its own (mayView above); only a provider the
        // registry answered for can be rotated.
        rotationToken: detail.status === 200 ? rotationForms.issue(session, slug) : undefined,
      },
      takeFlash(session),
    );
    sendPage(r.res, 200, body);
  }

  async function report(r: RouteRequest<{ slug: string; id: string }>): Promise<void> {
    const session = signedIn(r);
    if (!session) return;
    const { slug, id } = r.params;
    if (!mayView(session, slug)) return notFound(r.res, session, `No provider "${slug}" is yours to see.`);
    const answer = await api.call(readToken(session), 'GET', API.certification(slug, id));
    if (answer.status === 401) return expired(r.res, session);
    const { report } = answerAs<CertificationView>(answer.body);
    if (answer.status !== 200 || !isRecord(report))
      return notFound(r.res, session, `No report for certification "${id}" of ${slug}: ${apiError(answer)}`);
    // The reporter's own page, as `provcert report --html` writes it; its inline style and script are allowed by hash.
    sendPage(r.res, 200, renderHtml(report as unknown as RunReport), {}, reportCsp);
  }

  function stream(r: SlugRequest): void {
    const session = signedIn(r);
    if (!session) return;
    const slug = r.params.slug;
    if (!mayView(session, slug) || !serve) return notFound(r.res, session, 'not found');
    if (openStreams >= MAX_STREAMS)
      return sendPage(r.res, 503, page('Busy', html`<p>Too many live views are open; reload later.</p>`, session));
    openStreams++;
    r.res.once('close', () => openStreams--);
    const connected = serve.core;
    // A reconnecting EventSource says which event it saw last; the page's own newest is the floor.
    const after = Math.max(Number(r.query().get('after') ?? '0'), Number(r.req.headers['last-event-id'] ?? '0'));
    streamProvider(
      r.res,
      {
        api,
        runner,
        onWebhook: (listener) => connected.subscribe((w) => listener(w.slug)),
        live: () => sessions.isLive(session),
        onEnd: (hook) => sessions.onEnd(session, hook),
      },
      slug,
      readToken(session),
      Number.isSafeInteger(after) && after >= 0 ? after : 0,
      r.query().get('certifying') === '1',
    );
  }

  // --- actions: each one API call, its answer shown in words ---

  async function certify(r: SlugRequest): Promise<void> {
    const posted = await postedForm(r);
    if (!posted) return;
    const { session } = posted;
    const slug = r.params.slug;
    if (!mayView(session, slug)) return notFound(r.res, session, `No provider "${slug}" is yours to see.`);
    const started = runner.start(slug, session.token, (ok, text) => {
      session.flash = { kind: ok ? 'ok' : 'error', text };
    });
    if (!started) session.flash = { kind: 'error', text: `a certification of ${slug} started here is already running` };
    redirect(r.res, principalHome({ kind: 'provider', slug }));
  }

  async function decide(r: SlugRequest): Promise<void> {
    const posted = await postedForm(r);
    if (!posted) return;
    const { session, form } = posted;
    const slug = r.params.slug;
    if (session.principal.kind !== 'admin') return notFound(r.res, session, 'Only the operator decides.');
    const decision = form.get('decision') ?? '';
    const text = (name: string): string | undefined => form.get(name)?.trim() || undefined;
    const changes = (form.get('requiredChanges') ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
    const reasoned = decision !== 'APPROVE' && decision !== 'ACTIVATE';
    const body = reasoned
      ? {
          decision,
          reasonCode: text('reasonCode') ?? '',
          reason: text('reason') ?? '',
          ...(changes.length > 0 ? { requiredChanges: changes } : {}),
          ...(text('internalNote') ? { internalNote: text('internalNote') } : {}),
        }
      : { decision };
    const answer = await api.call(session.token, 'POST', API.review(slug), body);
    session.flash = outcome(answer, `${decision} recorded`);
    redirect(r.res, principalHome({ kind: 'provider', slug }));
  }

  async function reopen(r: SlugRequest): Promise<void> {
    const posted = await postedForm(r);
    if (!posted) return;
    const { session } = posted;
    const slug = r.params.slug;
    if (session.principal.kind !== 'admin') return notFound(r.res, session, 'Only the operator reopens.');
    const answer = await api.call(session.token, 'POST', API.reopen(slug));
    session.flash = outcome(answer, 'reopened as draft');
    redirect(r.res, principalHome({ kind: 'provider', slug }));
  }

  /**
   * The one form that answers with a page instead of a redirect: the new secret is in the API's answer only,
   * and may not pass through a URL, a cookie or the session, so it is rendered straight from it (no-store,
   * never logged, never kept). Its one-time token is spent before the API is called: a re-sent post rotates
   * nothing and shows nothing. The operator and a provider session share it; only the API route differs
   * (rotationRoute), always called with the session's own token.
   */
  async function rotateSecret(r: SlugRequest): Promise<void> {
    const posted = await postedForm(r);
    if (!posted) return;
    const { session, form } = posted;
    const slug = r.params.slug;
    if (!mayView(session, slug)) return notFound(r.res, session, `No provider "${slug}" is yours to see.`);
    if (form.get('confirm') !== 'yes')
      return sendPage(
        r.res,
        400,
        notRotatedPage(session, slug, 'Nothing was rotated: tick the confirmation box to rotate the webhook secret.'),
      );
    if (!rotationForms.spend(session, slug, form.get('once') ?? ''))
      return sendPage(
        r.res,
        409,
        notRotatedPage(
          session,
          slug,
          'Nothing was rotated: this rotation form was already sent (a reload or going back sends it again) or has expired. A new secret is shown only once, on the page that answered the rotation. To rotate again, use the form on the provider page.',
        ),
      );
    const answer = await api.call(session.token, 'POST', rotationRoute(session.principal, slug));
    if (answer.status === 401) return expired(r.res, session);
    const shown = answer.status === 200 ? rotationShown(answer.body) : undefined;
    if (shown) return sendPage(r.res, 200, rotatedPage(session, slug, shown));
    const configured =
      answer.status === 404
        ? " Slugs serve was started with (its providers setting) take their secret from serve's configuration and are not rotated by the API."
        : '';
    sendPage(
      r.res,
      answer.status === 404 ? 404 : 502,
      notRotatedPage(session, slug, `Nothing was rotated: ${apiError(answer)}.${configured}`),
    );
  }

  const routes: Route[] = [
    route('GET', '/console', home),
    route('GET', '/console/sign-in', (r) => showSignIn(r)),
    route('POST', '/console/sign-in', signIn),
    route('POST', '/console/sign-out', signOut),
    route('GET', '/console/providers', providers),
    route('GET', '/console/providers/:slug', provider),
    route('GET', '/console/providers/:slug/stream', stream),
    route('GET', '/console/providers/:slug/certifications/:id/report', report),
    route('POST', '/console/providers/:slug/certify', certify),
    route('POST', '/console/providers/:slug/decide', decide),
    route('POST', '/console/providers/:slug/reopen', reopen),
    route('POST', '/console/providers/:slug/rotate-webhook-secret', rotateSecret),
    route('GET', '/console/static/console.css', ({ res }) => sendAsset(res, 'text/css', CONSOLE_STYLE)),
    route('GET', '/console/static/console.js', ({ res }) => sendAsset(res, 'text/javascript', CONSOLE_SCRIPT)),
  ];
  return {
    routes,
    attach(s, token) {
      serve = s;
      operatorToken = token;
    },
  };
}

/**
 * Who acts decides the rotation route: the operator names the slug; a provider rotates through
 * /providers/me/… with its own token, which can only ever rotate its own secret (never the operator's token:
 * readToken is for reading pages only).
 */
function rotationRoute(principal: Principal, slug: string): string {
  return principal.kind === 'admin' ? API.rotateWebhookSecret(slug) : API.rotateOwnWebhookSecret;
}

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
