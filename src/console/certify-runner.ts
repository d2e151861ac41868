import type { CertificationView } from '../server/core-routes/views.js';
import { str } from '../util/json.js';
import { API, apiError, type ConsoleApi } from './api.js';
import { answerAs } from './data.js';

export type CertificationNews = { state: 'running'; text: string } | { state: 'finished'; ok: boolean; text: string };

interface Running {
  startedAt: number;
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

  /** Progress in words, while one started here runs. */
  progress(slug: string): string | undefined {
    const run = this.running.get(slug);
    if (!run) return undefined;
    const seconds = Math.floor((this.now() - run.startedAt) / 1000);
    return `Certification running for ${seconds} s (started ${new Date(run.startedAt).toISOString()}); its webhook events appear below as they arrive.`;
  }

  /** Starts one unless one started here is running; `done` gets the outcome in words. */
  start(slug: string, token: string, done: (ok: boolean, text: string) => void): boolean {
    if (this.running.has(slug)) return false;
    this.running.set(slug, { startedAt: this.now() });
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
      const text = this.progress(slug);
      if (text) listener({ state: 'running', text });
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
