import type { HttpOutcome } from '../http/types.js';
import { RUN_SETTING_DEFAULTS } from '../model/generated/run-settings.js';
import type { CheckOutcome } from '../model/report.js';
import { DEFAULT_EXPLORE_BUDGET } from '../model/run-config.js';
import type { SpellSetting } from '../model/setting-speller.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import type { CatalogView, OfferingView, ProviderInfoView } from './framework/views.js';
import { Findings } from './outcome.js';
import { keepEvidence } from './support/evidence.js';
import { expectError } from './support/expect.js';
import { buildModel, type ExploreModel, isPartialEntry } from './support/explore/catalog-model.js';
import { failureSignature, judgeOrder, type OrderVerdict } from './support/explore/oracle.js';
import {
  type BoundedAnswers,
  fitOrder,
  NO_CAPS,
  numericSeed,
  type Order,
  type OrderCaps,
  sampleOrders,
  sendWithinBounds,
  shapedByRefusals,
  shrinkOrder,
  tighterCaps,
} from './support/explore/orders.js';
import { inPool, inWindow, MAX_IN_FLIGHT } from './support/explore/pool.js';
import { describeReach, reachOf } from './support/explore/reach.js';
import { boundaryCases, type RefusalCase, refusalCases } from './support/explore/refusals.js';
import { formatQuoteMathTable } from './support/quote-math.js';
import { markReproduce, problemAt, success } from './support/tx.js';
import { quoteValidOrder, type ValidOrderAnswer } from './support/valid-order.js';

/**
 * Exploration stops starting requests after the run's exploreTimeCap (seconds), so a slow provider is neither flooded
 * nor waited on; a provider slow to quote is tested with a larger cap.
 */
const timeCapMs = (ctx: CheckContext): number =>
  (ctx.config.exploreTimeCap ?? RUN_SETTING_DEFAULTS.exploreTimeCap) * 1000;
/** The largest cap a remedy suggests (the setting's maximum). */
const MAX_SUGGESTED_CAP_S = 3600;
/**
 * The limit cases stop starting requests after this share of the cap: they go first, and a slow provider used to
 * spend the whole cap on them, leaving no generated order sent ("0 of 100") and the pricing rules untested.
 */
const LIMIT_CASES_SHARE = 0.5;
/** Fewer generated orders than this (or the budget, when smaller) tests too little: the check is untested, never a pass. */
export const MIN_EXPLORED_ORDERS = 20;
/** Requests one failure's shrinking may send, and how many distinct failures are shrunk. */
const SHRINK_BUDGET = 80;
/** Shrinking, which starts after the generated orders, stops this long after the time cap. */
const SHRINK_TIME_MS = 10_000;
const SHRUNK_FAILURES = 4;
const CLIENT_ERRORS = Array.from({ length: 100 }, (_, i) => 400 + i);

interface Sent {
  order: Order;
  answer: ValidOrderAnswer;
  verdict: OrderVerdict;
}

interface Explorer {
  ctx: CheckContext;
  f: Findings;
  info: ProviderInfoView;
  catalog: CatalogView;
  model: ExploreModel;
  /** The time cap (ms) and when it ends. */
  capMs: number;
  deadline: number;
  /** When the limit cases stop starting requests, so the generated orders keep their share of the cap. */
  limitDeadline: number;
  /** The provider's bounds the generated orders taught; shrinking keeps to them. */
  caps: OrderCaps;
  /** Orders quoted 200 (for what was reached). */
  quoted: Order[];
  refusals: Set<string>;
  /** The quote-math tables of the minimal orders, for the details. */
  tables: string[];
}

const compact = (order: Order): string => JSON.stringify(order);
const bodyOf = (x: Explorer, order: Order): Record<string, unknown> => ({ providerSlug: x.info.slug, ...order });
const outOfTime = (x: Explorer): boolean => x.ctx.signal.aborted || x.ctx.clock.now() > x.deadline;
const outOfLimitTime = (x: Explorer): boolean => outOfTime(x) || x.ctx.clock.now() > x.limitDeadline;

/**
 * The remedy when the time cap left rules untested: the exploreTimeCap that sends the minimum of generated orders and
 * every limit case at the measured pace (each within its half of the cap), or a faster provider.
 */
export function exploreCapRemedy(
  spell: SpellSetting,
  measured: { capS: number; perQuoteS: number | undefined; cases: number },
): string {
  const { capS, perQuoteS, cases } = measured;
  const needed = perQuoteS !== undefined ? 2 * perQuoteS * cases : 4 * capS;
  const cap = Math.min(MAX_SUGGESTED_CAP_S, Math.ceil(Math.max(2 * capS, needed)));
  const perQuote = perQuoteS !== undefined ? `${perQuoteS.toFixed(1)} s` : 'more than the cap';
  return `rerun with ${spell('exploreTimeCap', cap)}, or answer POST /quote faster in the test environment (it took about ${perQuote} per quote with up to ${MAX_IN_FLIGHT} in flight; exploration's time cap was ${capS} s)`;
}

/** What the time cap left untested: the generated orders below their minimum, the limit cases not sent. */
function noteUntested(
  x: Explorer,
  reached: { explored: number; minimum: number; generated: number; limitsSent: number; limits: number },
  startedAt: number,
): void {
  if (x.ctx.signal.aborted) {
    // Cut short by a stop: never a pass for orders not explored (the run marks the check interrupted).
    if (reached.explored < reached.generated || reached.limitsSent < reached.limits)
      x.f.untested({
        requirement: 'QUOTE-TOTAL-FORMULA',
        reason: `the run was stopped after ${reached.explored} of ${reached.generated} generated orders and ${reached.limitsSent} of ${reached.limits} limit cases`,
        remedy: 'run again to the end',
      });
    return;
  }
  const elapsedS = ((x.ctx.clock.now() - startedAt) / 1000).toFixed(1);
  const sent = reached.explored + reached.limitsSent;
  const perQuoteS = sent > 0 ? (x.ctx.clock.now() - startedAt) / 1000 / sent : undefined;
  const faster = exploreCapRemedy(x.ctx.spell, {
    capS: x.capMs / 1000,
    perQuoteS,
    cases: reached.minimum + reached.limits,
  });
  if (reached.explored < reached.minimum)
    x.f.untested({
      requirement: 'QUOTE-TOTAL-FORMULA',
      reason: `exploration reached ${reached.explored} of ${reached.generated} generated orders in ${elapsedS} s, fewer than its minimum of ${reached.minimum}: the quote math over the catalog was not tested`,
      remedy: faster,
    });
  if (reached.limitsSent < reached.limits)
    x.f.untested({
      requirement: 'QUOTE-SELECTION-LIMITS',
      reason: `${reached.limitsSent} of ${reached.limits} limit cases were sent within their share of the time cap`,
      remedy: faster,
    });
}

async function send(x: Explorer, order: Order): Promise<Sent> {
  const answer = await quoteValidOrder(() => x.ctx.resources.requestQuote(bodyOf(x, order)));
  const verdict = judgeOrder({ order, answer, catalog: x.catalog, providerSlug: x.info.slug });
  if (verdict.kind !== 'refused' && answer.attempt.quote) x.quoted.push(order);
  return { order, answer, verdict };
}

/** The first refusal of each kind, in the seed's order of orders, is a warning with its evidence. */
function warnRefusal(x: Explorer, sent: Sent): void {
  if (sent.verdict.kind !== 'refused' || x.refusals.has(sent.verdict.refusal)) return;
  x.refusals.add(sent.verdict.refusal);
  keepEvidence(x.f, sent.answer.attempt.outcome);
  x.f.warn(
    `refused a valid order: ${sent.verdict.refusal} (a provider's own bound, not a failure; smaller orders are explored instead): ${compact(sent.order)}`,
    'QUOTE-SELECTION-LIMITS',
  );
}

const SHAPED_LISTED = 10;

/** "; 3 generated order(s) were shaped by the provider's refusals (#2, #5, #9): …", or nothing when none was. */
function describeShaped(indexes: readonly number[]): string {
  if (indexes.length === 0) return '';
  const listed = indexes.slice(0, SHAPED_LISTED).map((i) => `#${i + 1}`);
  if (indexes.length > SHAPED_LISTED) listed.push('…');
  return `; ${indexes.length} generated order(s) were shaped by the provider's refusals (${listed.join(', ')}): the seed repeats them while the provider refuses the same orders`;
}

async function completedOfferings(ctx: CheckContext, catalog: CatalogView): Promise<OfferingView[]> {
  const full = await inPool(
    catalog.offerings,
    async (o) => {
      if (!isPartialEntry(o)) return o;
      const { outcome, problems } = await ctx.resources.getValidated(
        `/offerings/${encodeURIComponent(o.id)}`,
        'GET /offerings/{id}',
      );
      const ok = success(outcome);
      return ok && problems.length === 0 ? ({ ...o, ...(ok.json as OfferingView) } as OfferingView) : o;
    },
    () => ctx.signal.aborted,
  );
  return full.map((o, i) => o ?? (catalog.offerings[i] as OfferingView));
}

async function activeLocations(ctx: CheckContext, info: ProviderInfoView): Promise<string[]> {
  if (!info.capabilities.includes('LOCATIONS')) return [];
  const { outcome, problems } = await ctx.resources.getValidated('/locations', 'GET /locations', { activeOnly: true });
  const ok = success(outcome);
  if (!ok || problems.length > 0 || !Array.isArray(ok.json)) return [];
  return (ok.json as { id?: unknown; isActive?: unknown }[])
    .filter((l) => l.isActive !== false && typeof l.id === 'string')
    .map((l) => l.id as string);
}

/** A refusal case must be a 4xx ErrorResponse with a documented code; a 2xx quote (or silent substitute) fails. */
function judgeRefusal(x: Explorer, c: RefusalCase, outcome: HttpOutcome): void {
  const what = `POST /quote with ${c.describe}`;
  const accepted = success(outcome);
  if (accepted) {
    const lines = (accepted.json as { lines?: { offeringId?: string; variantId?: string }[] } | undefined)?.lines;
    const quotedIds = (Array.isArray(lines) ? lines : []).map((l) => l.variantId ?? l.offeringId ?? '?');
    const body = JSON.stringify(accepted.json ?? '');
    const silent = c.wanted !== undefined && !body.includes(JSON.stringify(c.wanted));
    problemAt(
      x.f,
      x.ctx,
      outcome,
      silent
        ? `silent substitution: ${what} was answered ${accepted.status} quoting ${quotedIds.join(', ')}; expected a 4xx ErrorResponse (order ${compact(c.order)})`
        : `${what} was accepted (HTTP ${accepted.status}); expected a 4xx ErrorResponse (order ${compact(c.order)})`,
      c.requirement,
    );
    return;
  }
  const codes = x.ctx.contract.enumValues('ErrorCode');
  const sent = `${what} (order ${compact(c.order)})`;
  if (!expectError(x.f, outcome, { what: sent, statuses: CLIENT_ERRORS, requirement: c.requirement })) {
    markReproduce(x.f, x.ctx, outcome);
    return;
  }
  const code = outcome.kind === 'response' ? (outcome.json as { code?: string }).code : undefined;
  if (codes.length > 0 && code !== undefined && !codes.includes(code))
    problemAt(
      x.f,
      x.ctx,
      outcome,
      `${sent} was refused with code ${code}, which is not a documented error code (${codes.join(', ')})`,
      'ERROR-CODES-DOCUMENTED',
    );
}

/** Shrink one failure to the smallest order that still fails on the same requirement, and report it. */
async function reportShrunk(x: Explorer, seed: number, index: number, first: Sent): Promise<void> {
  const runSeed = x.ctx.config.seed;
  const primary = first.verdict.kind === 'fail' ? first.verdict.cited[0] : undefined;
  let spent = 0;
  const shrunk = await shrinkOrder<Sent>({
    model: x.model,
    seed,
    index,
    stillFails: async (order) => {
      if (spent >= SHRINK_BUDGET || x.ctx.signal.aborted || x.ctx.clock.now() > x.deadline + SHRINK_TIME_MS)
        return undefined;
      spent++;
      const sent = await send(x, fitOrder(order, x.caps));
      return sent.verdict.kind === 'fail' && primary !== undefined && sent.verdict.cited.includes(primary)
        ? sent
        : undefined;
    },
  });
  const minimal = shrunk?.found ?? first;
  const verdict = minimal.verdict;
  if (verdict.kind !== 'fail') return;
  const from =
    minimal === first
      ? `generated order #${index + 1} of seed ${runSeed}`
      : `shrunk from generated order #${index + 1} of seed ${runSeed} in ${spent} request(s)`;
  const at = verdict.problems.findIndex((_, i) => verdict.cited[i] === primary);
  const main = Math.max(0, at);
  problemAt(
    x.f,
    x.ctx,
    minimal.answer.attempt.outcome,
    `${verdict.problems[main]} — minimal order (${from}): ${compact(minimal.order)}`,
    verdict.cited[main],
  );
  verdict.problems.forEach((p, i) => {
    if (i !== main) x.f.problem(`(same minimal order) ${p}`, verdict.cited[i]);
  });
  if (verdict.rows.length > 0) {
    x.f.quoteMath ??= verdict.rows.map((r) => ({ ...r, label: `minimal order: ${r.label}` }));
    x.tables.push(
      'computation for that minimal order (expected beside the provider):',
      ...formatQuoteMathTable(verdict.rows),
    );
  }
}

export const check: CheckDefinition = {
  id: 'quote-explore',
  group: 'transactional',
  title: 'Generated orders over the whole catalog are quoted and refused as the contract says',
  rule: 'Contract, Provider route behaviour rule 1 (quote math) and "Availability, quantity and option selection limits are checked"; "An unavailable item or variant produces a clear error … never a silent replacement"; docs/decisions.md, Exploration (generated orders)',
  requirements: [
    'QUOTE-MATCHES-SELECTION',
    'QUOTE-LINE-TOTAL',
    'QUOTE-OPTION-CONTRIBUTION',
    'QUOTE-FEES-SUM',
    'QUOTE-TOTAL-FORMULA',
    'QUOTE-SUBTOTAL-SUM',
    'QUOTE-OPTIONS-ONCE',
    'QUOTE-MIN-VALIDITY',
    'QUOTE-REQUIRED-FIELDS',
    'QUOTE-SELECTION-LIMITS',
    'QUOTE-UNAVAILABLE',
    'ERROR-NOT-FOUND',
    'ERROR-CODES-DOCUMENTED',
    'ROUTE-QUOTE',
  ],
  needs: ['catalog'],
  appliesTo: {
    operations: ['POST /quote'],
    profiles: ['TRANSACTIONAL'],
    description: 'TRANSACTIONAL providers whose test environment is declared safe; an explore budget of 0 turns it off',
  },
  skipReason: (ctx) =>
    ctx.config.explore === 0
      ? `exploration is off (${ctx.spell('explore', 0)}); no generated order was sent`
      : undefined,
  // It sends only POST /quote (no order is created) and GET, but only where POST requests are allowed at all.
  async run(ctx) {
    const f = new Findings();
    const [info, catalog] = await Promise.all([ctx.resources.providerInfo(), ctx.resources.catalog()]);
    const [offerings, locations] = await Promise.all([completedOfferings(ctx, catalog), activeLocations(ctx, info)]);
    const model = buildModel(offerings, locations);
    const seed = numericSeed(ctx.config.seed);
    const budget = ctx.config.explore ?? DEFAULT_EXPLORE_BUDGET;
    const startedAt = ctx.clock.now();
    const x: Explorer = {
      ctx,
      f,
      info,
      catalog: { ...catalog, offerings },
      model,
      capMs: timeCapMs(ctx),
      deadline: startedAt + timeCapMs(ctx),
      limitDeadline: startedAt + timeCapMs(ctx) * LIMIT_CASES_SHARE,
      caps: NO_CAPS,
      quoted: [],
      refusals: new Set(),
      tables: [],
    };
    if (model.offerings.length === 0) {
      f.warn('the catalog has no available offering a valid order could hold; nothing was explored');
      return f.outcome(`nothing to explore (seed ${ctx.config.seed})`);
    }
    const at = model.locations[0] !== undefined ? { locationId: model.locations[0] } : {};

    // The valid side of every limit must be quoted; each refusal case must be refused.
    const boundaries = boundaryCases(model, at);
    const boundarySent = await inPool(
      boundaries,
      (c) => send(x, c.order),
      () => outOfLimitTime(x),
    );
    boundarySent.forEach((sent, i) => {
      const c = boundaries[i];
      if (!sent || !c) return;
      if (sent.verdict.kind === 'refused')
        problemAt(
          f,
          ctx,
          sent.answer.attempt.outcome,
          `the valid side of a limit was refused: POST /quote with ${c.describe} answered ${sent.verdict.refusal} (order ${compact(c.order)})`,
          'QUOTE-SELECTION-LIMITS',
        );
    });
    const refusals = refusalCases(model, at);
    const refused = await inPool(
      refusals,
      async (c) => (await ctx.resources.requestQuote(bodyOf(x, c.order))).outcome,
      () => outOfLimitTime(x),
    );
    refused.forEach((outcome, i) => {
      const c = refusals[i];
      if (outcome && c) judgeRefusal(x, c, outcome);
    });

    // Generated orders, then the first order of each distinct failure shrunk to a minimal one.
    const orders = await sampleOrders(model, seed, budget);
    const window = await inWindow({
      inputs: orders,
      initial: NO_CAPS,
      learn: (caps, e: BoundedAnswers<Sent>) => tighterCaps(caps, e.caps),
      // A valid order within the bounds earlier orders taught; after a clear 4xx (the provider's own bound) smaller ones.
      work: (generated, _, caps) =>
        sendWithinBounds({
          generated,
          caps,
          send: (order) => send(x, order),
          refused: (s) => s.verdict.kind === 'refused',
          more: () => !outOfTime(x),
        }),
      stop: () => outOfTime(x),
    });
    x.caps = window.known;
    for (const e of window.results) for (const r of e?.refused ?? []) warnRefusal(x, r);
    const sent = window.results.map((e) => e?.last);
    const explored = sent.filter((s) => s !== undefined).length;
    const minimum = Math.min(MIN_EXPLORED_ORDERS, orders.length);
    // Below the minimum it is no warning but a rule not tested (noteUntested below).
    if (explored < orders.length && explored >= minimum)
      f.warn(
        `exploration stopped after ${explored} of ${orders.length} generated orders (time cap ${x.capMs / 1000} s, ${ctx.spell('exploreTimeCap')}, or interrupt)`,
      );
    const limitsSent = [...boundarySent, ...refused].filter((s) => s !== undefined).length;
    noteUntested(
      x,
      {
        explored,
        minimum,
        generated: orders.length,
        limitsSent,
        limits: boundaries.length + refusals.length,
      },
      startedAt,
    );
    const firstBySignature = new Map<string, number>();
    sent.forEach((s, i) => {
      if (s?.verdict.kind === 'fail' && !firstBySignature.has(failureSignature(s.verdict)))
        firstBySignature.set(failureSignature(s.verdict), i);
    });
    const failures = [...firstBySignature.values()].slice(0, SHRUNK_FAILURES);
    for (const index of failures) {
      const first = sent[index];
      if (first) await reportShrunk(x, seed, index, first);
    }

    const reach = describeReach(reachOf(model, x.quoted));
    const shaped = describeShaped(shapedByRefusals(orders, window.results));
    const summary = `explored ${explored} generated order(s) and ${boundaries.length + refusals.length} limit case(s) with seed ${ctx.config.seed} (${ctx.spell('seed', ctx.config.seed)} repeats them): ${reach}${shaped}`;
    const out: CheckOutcome = f.outcome(summary);
    if (out.status === 'fail') out.details = [...(out.details ?? []), ...x.tables, summary];
    return out;
  },
};
