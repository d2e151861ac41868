import { type Route, route } from '../server/route-table.js';
import { CONSOLE_SCRIPT, CONSOLE_STYLE } from './assets.js';
import { certificateDownload } from './certificate-handler.js';
import { type ConsoleServe, createConsoleContext } from './context.js';
import { formPost, formPostFor, signedInOnly, viewerOf } from './guards.js';
import { provider, report } from './provider-handlers.js';
import { providers } from './provider-list-handlers.js';
import { sendAsset } from './respond.js';
import { certify, decide, reopen, submitReview } from './review-action-handlers.js';
import { rotateSecret } from './rotation-handler.js';
import { home, showSignIn, signIn, signOut } from './sign-in-handlers.js';
import { stream } from './stream-handler.js';

export type { ConsoleServe } from './context.js';

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

/**
 * The operator console, served by `provcert serve` under /console: server-rendered pages of what the
 * core API answers, for the operator (admin token) and for providers (their own token, their own data).
 * One line per route: its guard (signed in, may see the slug, a CSRF-checked form, the operator only) and its
 * handler, a function of `(context, request)` in the file of its resource.
 */
export function createConsole(options: { now?: () => number } = {}): ProvcertConsole {
  const ctx = createConsoleContext(options.now);
  const operatorOnly = (what: string) => ({ operator: `Only the operator ${what}.` });
  const viewer = { viewer: true } as const;
  const routes: Route[] = [
    route('GET', '/console', signedInOnly(ctx, home)),
    route('GET', '/console/sign-in', (r) => showSignIn(ctx, r)),
    route('POST', '/console/sign-in', (r) => signIn(ctx, r)),
    route('POST', '/console/sign-out', formPost(ctx, signOut)),
    route('GET', '/console/providers', signedInOnly(ctx, providers)),
    route('GET', '/console/providers/:slug', viewerOf(ctx, provider)),
    route(
      'GET',
      '/console/providers/:slug/stream',
      viewerOf(ctx, stream, () => 'not found'),
    ),
    route('GET', '/console/providers/:slug/certifications/:id/report', viewerOf(ctx, report)),
    route('GET', '/console/providers/:slug/certificate', viewerOf(ctx, certificateDownload)),
    route('POST', '/console/providers/:slug/certify', formPostFor(ctx, viewer, certify)),
    route('POST', '/console/providers/:slug/decide', formPostFor(ctx, operatorOnly('decides'), decide)),
    route(
      'POST',
      '/console/providers/:slug/submit-review',
      formPostFor(ctx, { onboarding: "Only the operator or the provider's account submits for review." }, submitReview),
    ),
    route('POST', '/console/providers/:slug/reopen', formPostFor(ctx, operatorOnly('reopens'), reopen)),
    route('POST', '/console/providers/:slug/rotate-webhook-secret', formPostFor(ctx, viewer, rotateSecret)),
    route('GET', '/console/static/console.css', ({ res }) => sendAsset(res, 'text/css', CONSOLE_STYLE)),
    route('GET', '/console/static/console.js', ({ res }) => sendAsset(res, 'text/javascript', CONSOLE_SCRIPT)),
  ];
  return {
    routes,
    attach(serve, operatorToken) {
      ctx.serve = serve;
      ctx.operatorToken = operatorToken;
    },
  };
}
