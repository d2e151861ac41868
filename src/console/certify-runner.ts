import type { AdminProviderView, CertificationView } from '../server/core-routes/views.js';
import { str } from '../util/json.js';
import { API, apiError, type ConsoleApi } from './api.js';
import { answerAs } from './data.js';

/** Checks done out of the checks the run planned (total 0 until it planned them). */
export interface ChecksDone {
  done: number;
  total: number;
}

export type CertificationNews =
  | { state: 'running'; text: string; checks?: ChecksDone }
  | { state: 'finished'; ok: boolean; text: string };

interface Running {
  startedAt: number;
  token: string;
  /** The core's count, read from the API (GET /admin/providers/{slug}, `certifying`). */
  checks?: ChecksDone;
}

const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;

/** The `certifying` of an admin provider answer, when the core counts a running certification. */
function checksOf(body: Record<string, unknown>): ChecksDone | undefined {
  const certifying = answerAs<NonNullable<AdminProviderView['certifying']>>(
    answerAs<AdminProviderView>(body).certifying,
  );
  const done = count(certifying.checksDone);
  const total = count(certifying.checksTotal);
  return done === undefined || total === undefined ? undefined : { done, total };
}

/**
 * Certifications started from the console: each is one POST …/certify to the API (which stores the
 * record and answers at the end), awaited in the background so the page can show its progress.
 */
export class CertifyRunner {
  private readonly running = new Map<string, Running>();
  private readonly listeners = new Map<string, Set<(news: CertificationNews) => void>>();

  constructor(
    private readonly api: ConsoleApi,
    private readonly now: () => number = Date.now,
  ) {}

  /** Progress in words, while one started here runs: checks done out of the total once the run planned them. */
  progress(slug: string): string | undefined {
    const run = this.running.get(slug);
    if (!run) return undefined;
    const seconds = Math.floor((this.now() - run.startedAt) / 1000);
    const checks =
      run.checks && run.checks.total > 0
        ? `${run.checks.done} of ${run.checks.total} checks done`
        : 'planning the checks';
    return `Certification running: ${checks} (${seconds} s); its webhook events appear below as they arrive.`;
  }

  /** The checks done out of the total, while one started here runs (undefined before the run planned them). */
  checks(slug: string): ChecksDone | undefined {
    const checks = this.running.get(slug)?.checks;
    return checks && checks.total > 0 ? { ...checks } : undefined;
  }

  /** Reads the core's count of a running certification (the API is the one source; the console keeps no copy). */
  private async refresh(slug: string): Promise<void> {
    const run = this.running.get(slug);
    if (!run) return;
    const answer = await this.api.call(run.token, 'GET', API.adminProvider(slug)).catch(() => undefined);
    const checks = answer?.status === 200 ? checksOf(answer.body) : undefined;
    if (checks) run.checks = checks;
  }

  /** Starts one unless one started here is running; `done` gets the outcome in words. */
  start(slug: string, token: string, done: (ok: boolean, text: string) => void): boolean {
    if (this.running.has(slug)) return false;
    this.running.set(slug, { startedAt: this.now(), token });
    void this.api
      .call(token, 'POST', API.certify(slug))
      .then(
        (answer) => {
          if (answer.status !== 200) return { ok: false, text: `the certification did not run: ${apiError(answer)}` };
          const certification = answerAs<CertificationView>(answer.body);
          const verdict = str(certification.verdict) ?? 'unknown';
          const id = str(certification.id) ?? '';
          return { ok: true, text: `certification ${id} finished: ${verdict}` };
        },
        (e: unknown) => ({ ok: false, text: `the certification did not run: ${(e as Error).message}` }),
      )
      .then(({ ok, text }) => {
        this.running.delete(slug);
        done(ok, text);
        this.tell(slug, { state: 'finished', ok, text });
      });
    return true;
  }

  /** Running → news every second while it runs; finished once. Returns the unsubscribe. */
  listen(slug: string, listener: (news: CertificationNews) => void): () => void {
    const set = this.listeners.get(slug) ?? new Set();
    set.add(listener);
    this.listeners.set(slug, set);
    const tick = setInterval(() => {
      void this.refresh(slug).then(() => {
        const text = this.progress(slug);
        const checks = this.checks(slug);
        if (text) listener({ state: 'running', text, ...(checks ? { checks } : {}) });
      });
    }, 1000);
    tick.unref();
    return () => {
      clearInterval(tick);
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(slug);
    };
  }

  private tell(slug: string, news: CertificationNews): void {
    for (const listener of this.listeners.get(slug) ?? []) listener(news);
  }
}
