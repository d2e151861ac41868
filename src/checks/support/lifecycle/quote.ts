import { curlFor } from '../../../http/reproduce.js';
import { isRecord } from '../../../util/json.js';
import { PrerequisiteError } from '../../framework/resources.js';
import type { QuoteView } from '../../framework/views.js';
import { describeAnswer } from '../expect.js';
import { success } from '../tx.js';
import { type AgedQuote, type Cmd, type LifecycleEnv, type LifecycleReal, named, send } from './env.js';
import { canQuote, type LifecycleModel } from './model.js';

/** The quote commands of the lifecycle exploration: quotes taken with their sequence, or aged ones taken up front. */

/** Takes a quote ahead of its sequence (when the check starts); undefined when the quote route fails. */
export async function ageQuote(env: LifecycleEnv): Promise<AgedQuote | undefined> {
  const outcome = await env.ctx.client.send({ method: 'POST', path: '/quote', json: await quoteBody(env) });
  const json = success(outcome)?.json;
  if (!isRecord(json) || typeof json['id'] !== 'string' || typeof json['expiresAt'] !== 'string') return undefined;
  return { quote: json as unknown as QuoteView, outcome };
}

/** An aged quote with enough validity left for an action, taken out of the pool. */
function takeAged(env: LifecycleEnv): AgedQuote | undefined {
  const now = env.ctx.clock.now();
  while (env.aged.length > 0) {
    const next = env.aged.shift() as AgedQuote;
    if (Date.parse(next.quote.expiresAt) - now >= env.agedMinLeftMs) return next;
  }
  return undefined;
}

/**
 * Takes a quote for the selection (an aged one for a sequence that waits, while there are some); returns whether it
 * is aged. A quote route that fails is quote-math's finding, not this check's.
 */
export async function takeQuote(env: LifecycleEnv, real: LifecycleReal): Promise<boolean> {
  const label = `quote ${real.quotes.length + 1}`;
  const aged = real.aged ? takeAged(env) : undefined;
  if (aged) {
    const { auth: authMethod, credentialSource } = env.ctx.config;
    real.steps.push({
      label,
      answer: `POST /quote → ${describeAnswer(aged.outcome)}${named(aged.outcome)}`,
      curl: curlFor(aged.outcome.exchange, authMethod, credentialSource),
    });
    real.quotes.push(aged.quote);
    return true;
  }
  const body = await quoteBody(env);
  const outcome = await send(env, real, label, {
    method: 'POST',
    path: '/quote',
    json: body,
  });
  const json = success(outcome)?.json;
  if (!isRecord(json) || typeof json['id'] !== 'string' || typeof json['expiresAt'] !== 'string')
    throw new PrerequisiteError(
      'quote-math',
      `POST /quote answered ${describeAnswer(outcome)}; no quote to explore with`,
    );
  real.quotes.push(json as unknown as QuoteView);
  return false;
}

async function quoteBody(env: LifecycleEnv): Promise<Record<string, unknown>> {
  const selection = await env.ctx.resources.selection();
  return {
    providerSlug: env.slug,
    ...(selection.locationId ? { locationId: selection.locationId } : {}),
    items: selection.items,
  };
}

export class QuoteCommand implements Cmd {
  constructor(private readonly env: LifecycleEnv) {}
  check = (m: Readonly<LifecycleModel>): boolean => canQuote(m);
  async run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    const aged = await takeQuote(this.env, r);
    m.quotes.push({ expired: false, aged });
  }
  toString = (): string => 'quote';
}
