import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Who a session belongs to: the operator, an account (its own providers only), or one provider (its own data only). */
export type Principal =
  | { kind: 'admin' }
  | { kind: 'account'; id: string; name: string }
  | { kind: 'provider'; slug: string };

export interface Flash {
  kind: 'ok' | 'error';
  text: string;
}

export interface Session {
  readonly id: string;
  readonly csrf: string;
  readonly principal: Principal;
  /** The bearer token the API accepted; kept in server memory only, never sent to the browser. */
  readonly token: string;
  readonly createdAt: number;
  lastSeen: number;
  /** One message for the next page (post-redirect-get). */
  flash?: Flash;
}

export const SESSION_COOKIE = 'provcert_console';
/** Before sign-in: the double-submit token of the sign-in form. */
export const SIGN_IN_COOKIE = 'provcert_console_signin';
export const COOKIE_PATH = '/console';
const IDLE_MS = 60 * 60 * 1000;
const MAX_AGE_MS = 12 * 60 * 60 * 1000;
/**
 * Sessions kept at once per principal (the operator, each provider): beyond it that principal's least recently
 * seen is dropped, never another principal's. Principals are the operator and registered providers, so memory
 * stays bounded by the registry.
 */
const MAX_SESSIONS_PER_PRINCIPAL = 64;

const principalKey = (p: Principal): string =>
  p.kind === 'admin' ? 'admin' : p.kind === 'account' ? `account ${p.id}` : `provider ${p.slug}`;

export const randomToken = (): string => randomBytes(32).toString('base64url');

export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

export function readCookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** HttpOnly, SameSite=Strict, scoped to /console; `maxAgeS` 0 deletes it. */
export function cookie(name: string, value: string, maxAgeS?: number): string {
  const age = maxAgeS === undefined ? '' : `; Max-Age=${maxAgeS}`;
  return `${name}=${value}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Strict${age}`;
}

/** In-memory sessions (a restart signs everyone out): the cookie holds a random id, never the token. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  /** Each principal's session ids. */
  private readonly byPrincipal = new Map<string, Set<string>>();
  /** What to stop when a session ends (its live streams). */
  private readonly endHooks = new Map<string, Set<() => void>>();

  constructor(private readonly now: () => number = Date.now) {}

  create(principal: Principal, token: string): Session {
    const key = principalKey(principal);
    const own = this.byPrincipal.get(key) ?? new Set<string>();
    this.byPrincipal.set(key, own);
    while (own.size >= MAX_SESSIONS_PER_PRINCIPAL) {
      const stale = this.leastRecentlySeen(own);
      if (!stale) break;
      this.end(stale);
    }
    const t = this.now();
    const session: Session = { id: randomToken(), csrf: randomToken(), principal, token, createdAt: t, lastSeen: t };
    this.sessions.set(session.id, session);
    own.add(session.id);
    return session;
  }

  private leastRecentlySeen(ids: ReadonlySet<string>): Session | undefined {
    let oldest: Session | undefined;
    for (const id of ids) {
      const s = this.sessions.get(id);
      if (s && (!oldest || s.lastSeen < oldest.lastSeen)) oldest = s;
    }
    return oldest;
  }

  private forget(session: Session): void {
    this.sessions.delete(session.id);
    const key = principalKey(session.principal);
    const own = this.byPrincipal.get(key);
    own?.delete(session.id);
    if (own?.size === 0) this.byPrincipal.delete(key);
  }

  /** The live session the request's cookie names; an expired one is removed. */
  get(req: IncomingMessage): Session | undefined {
    const id = readCookie(req, SESSION_COOKIE);
    if (!id) return undefined;
    const session = this.sessions.get(id);
    if (!session) return undefined;
    const t = this.now();
    if (t - session.lastSeen > IDLE_MS || t - session.createdAt > MAX_AGE_MS) {
      this.forget(session);
      return undefined;
    }
    session.lastSeen = t;
    return session;
  }

  /** Whether the session has not ended (a stream asks before each write). */
  isLive(session: Session): boolean {
    const t = this.now();
    return (
      this.sessions.get(session.id) === session &&
      t - session.lastSeen <= IDLE_MS &&
      t - session.createdAt <= MAX_AGE_MS
    );
  }

  /** Runs `hook` when the session ends (sign-out); returns the removal. */
  onEnd(session: Session, hook: () => void): () => void {
    const hooks = this.endHooks.get(session.id) ?? new Set();
    hooks.add(hook);
    this.endHooks.set(session.id, hooks);
    return () => {
      hooks.delete(hook);
      if (hooks.size === 0) this.endHooks.delete(session.id);
    };
  }

  end(session: Session): void {
    this.forget(session);
    const hooks = this.endHooks.get(session.id);
    this.endHooks.delete(session.id);
    for (const hook of hooks ?? []) hook();
  }
}
