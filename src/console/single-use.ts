import { randomToken, type Session } from './session.js';

/** Unused forms kept per session: an older one (a tab left open long ago) then says "reload". */
const MAX_PER_SESSION = 32;

/**
 * One-time tokens of a form whose effect must not repeat (the webhook secret rotation): each rendering of the
 * form gets its own, bound to the session and the slug, and a post spends it. A reload or a back-navigation
 * that re-sends the post carries a spent token and is refused, so it neither rotates again nor shows a secret.
 * The session's CSRF token stays the same for the session's other forms; this one is on top of it.
 */
export class SingleUseForms {
  private readonly issued = new WeakMap<Session, Map<string, string>>();

  issue(session: Session, slug: string): string {
    const forms = this.issued.get(session) ?? new Map<string, string>();
    this.issued.set(session, forms);
    const token = randomToken();
    forms.set(token, slug);
    while (forms.size > MAX_PER_SESSION) {
      const oldest = forms.keys().next().value;
      if (oldest === undefined) break;
      forms.delete(oldest);
    }
    return token;
  }

  /** Whether `token` was issued to this session for `slug` and not spent yet; it is spent either way. */
  spend(session: Session, slug: string, token: string): boolean {
    const forms = this.issued.get(session);
    const issuedFor = forms?.get(token);
    forms?.delete(token);
    return issuedFor !== undefined && issuedFor === slug;
  }
}
