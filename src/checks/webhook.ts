import { parseIsoTimestamp } from '../contract/timestamp.js';
import { sendEventCommand } from '../http/provcert-command.js';
import type { ReceivedWebhook } from '../model/webhooks.js';
import { belongsTo, isAccepted, timelineEntry } from '../model/webhooks.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { reasonProblems } from './support/event-reason.js';
import { keepEvidence } from './support/evidence.js';
import { describeAnswer, schemaWarnings } from './support/expect.js';
import { judgeOwnReferences } from './support/own-references.js';
import { compareIdentity, describeMismatch, otherIdNamed } from './support/probe-tables/identity.js';
import { actionPath, problemAt } from './support/tx.js';
import { type AwaitedEvent, awaitEvents } from './support/webhook-wait.js';

const STATUS_EVENT = 'action.status_updated';

type TestAction = { id: string; publicId: string; cancelled: boolean; answer?: Record<string, unknown> };

const field = (w: ReceivedWebhook, name: string): string | undefined => {
  const value = w.event?.[name];
  return typeof value === 'string' ? value : undefined;
};

const names = (a: TestAction, actionId: string | undefined): boolean =>
  actionId !== undefined && (actionId === a.id || actionId === a.publicId);

/** The newest status an action's accepted events report: by event timestamp, then arrival. */
export function latestStatus(
  events: readonly ReceivedWebhook[],
): { status: string; event: ReceivedWebhook } | undefined {
  const withStatus = events.filter((w) => isAccepted(w) && !w.duplicate && field(w, 'newStatus') !== undefined);
  const time = (w: ReceivedWebhook) => {
    return parseIsoTimestamp(field(w, 'timestamp'))?.epochMs ?? Number.NEGATIVE_INFINITY;
  };
  const sorted = [...withStatus].sort((a, b) => time(a) - time(b) || a.seq - b.seq);
  const last = sorted.at(-1);
  const status = last ? field(last, 'newStatus') : undefined;
  return last && status !== undefined ? { status, event: last } : undefined;
}

/** Rejected deliveries, grouped by the receiver's reason (one line per distinct diagnosis). */
export function rejectionProblems(received: readonly ReceivedWebhook[]): string[] {
  const byReason = new Map<string, ReceivedWebhook[]>();
  for (const w of received) {
    if (isAccepted(w)) continue;
    const reason = `HTTP ${w.answeredStatus}: ${w.problem ?? 'rejected'}`;
    byReason.set(reason, [...(byReason.get(reason) ?? []), w]);
  }
  return [...byReason].map(([reason, ws]) => {
    const ids = ws.map((w) => field(w, 'eventId')).filter((id): id is string => id !== undefined);
    const which =
      ws.length === 1
        ? `event ${ids[0] ?? '(unparsed)'} was`
        : `${ws.length} events (${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''}) were`;
    return `${which} rejected by the receiver (${reason})`;
  });
}

/** Which rule a rejected delivery broke, from the receiver's diagnosis. */
function rejectionRequirement(problem: string): string {
  if (/HTTP 401/.test(problem) && /x-signature|header/i.test(problem) && !/secret|serialized|body/i.test(problem))
    return 'WEBHOOK-CANONICAL-HEADER';
  if (/content-type/i.test(problem)) return 'WEBHOOK-CONTENT-TYPE-JSON';
  if (/providerSlug .* does not match .* in the path|no provider with slug/.test(problem)) return 'WEBHOOK-SLUG-ROUTE';
  if (/\/timestamp must be a valid ISO 8601/.test(problem)) return 'TIMESTAMPS-ISO8601';
  if (/\/newStatus must be one of/.test(problem)) return 'ACTION-STATUS-ENUM';
  if (/HTTP 4(00|22)/.test(problem)) return 'WEBHOOK-EVENT-REQUIRED-FIELDS';
  return 'WEBHOOK-SIGNATURE';
}

/**
 * Whether a request is the provider's own (docs/decisions.md, "Whose webhook is it"): attributed to it by the
 * receiver (its secret verified the signature, or provably made it), or unattributed yet about one of this run's
 * test actions, whose ids only the provider and the run know. Everything else on its route is noise: counted apart
 * (report.webhooks.ignored), never the provider's failure, since anyone who reaches the receiver can send it.
 */
export function isOwnEvent(w: ReceivedWebhook, slug: string, actions: readonly TestAction[]): boolean {
  if (w.restored) return false;
  if (w.attributedTo !== undefined) return w.attributedTo === slug;
  return belongsTo(w, slug) && actions.some((a) => names(a, field(w, 'actionId')));
}

/**
 * When an expected event is missing, the unverifiable requests its route did get may have been the provider's
 * (a wrong secret on events that name no test action, an oversized body): say so, without counting them.
 */
function ignoredHint(received: readonly ReceivedWebhook[], slug: string, actions: readonly TestAction[]): string {
  const ignored = received.filter(
    (w) => !w.restored && w.attributedTo === undefined && belongsTo(w, slug) && !isOwnEvent(w, slug, actions),
  );
  if (ignored.length === 0) return '';
  const statuses = [...new Set(ignored.map((w) => w.answeredStatus))].sort().join(', ');
  return ` (${ignored.length} unverifiable request(s) to its route were ignored, answered HTTP ${statuses}: if they were the provider's, check the webhook secret it signs with, the body size, and that each event names its action)`;
}

/**
 * The deliveries of this run. A shared receiver (provcert serve) may hold earlier runs' events: those
 * that arrived before the first event about one of this run's actions are left out.
 */
export function thisRun(received: readonly ReceivedWebhook[], actions: readonly TestAction[]): ReceivedWebhook[] {
  const first = received.find((w) => actions.some((a) => names(a, field(w, 'actionId'))));
  return first ? received.filter((w) => w.seq >= first.seq) : [...received];
}

/** Wait, all at once within one budget, for the events each test action must produce. */
function awaitActionEvents(
  ctx: CheckContext,
  actions: readonly TestAction[],
  ours: (w: ReceivedWebhook) => boolean,
): Promise<string[]> {
  const budget = ctx.config.webhookTimeout;
  // What did arrive for an action, so a wrong status is named rather than only a missing one.
  const saidFor = (a: TestAction): string => {
    const statuses = ctx.webhooks
      .all()
      .filter((w) => ours(w) && names(a, field(w, 'actionId')))
      .map((w) => field(w, 'newStatus') ?? '(none)');
    return statuses.length > 0 ? ` (its events said newStatus ${[...new Set(statuses)].join(', ')})` : '';
  };
  const awaited = actions.flatMap((a): AwaitedEvent[] => [
    {
      matches: (w) => ours(w) && names(a, field(w, 'actionId')),
      missing: () => `no status event for action ${a.publicId} arrived within ${budget} ms`,
    },
    ...(a.cancelled
      ? [
          {
            matches: (w: ReceivedWebhook) =>
              ours(w) && names(a, field(w, 'actionId')) && field(w, 'newStatus') === 'CANCELLED',
            missing: () =>
              `no event with newStatus CANCELLED for the cancelled action ${a.publicId} arrived within ${budget} ms${saidFor(a)}`,
          },
        ]
      : []),
  ]);
  return awaitEvents(ctx, awaited, budget);
}

/** The latest accepted status of each action agrees with GET /actions/{id}; unknown action ids are reported. */
async function compareWithStatus(
  ctx: CheckContext,
  f: Findings,
  actions: readonly TestAction[],
  accepted: readonly ReceivedWebhook[],
): Promise<void> {
  const unknownIds = [
    ...new Set(accepted.map((w) => field(w, 'actionId')).filter((id): id is string => id !== undefined)),
  ].filter((id) => !actions.some((a) => names(a, id)));
  const subjects = [
    ...actions.map((a) => ({
      id: a.id,
      label: a.publicId,
      known: true,
      answer: a.answer,
      refers: (w: ReceivedWebhook) => names(a, field(w, 'actionId')),
    })),
    ...unknownIds.map((id) => ({
      id,
      label: id,
      known: false,
      answer: undefined,
      refers: (w: ReceivedWebhook) => field(w, 'actionId') === id,
    })),
  ];
  await Promise.all(
    subjects.map(async (s) => {
      const events = accepted.filter(s.refers);
      const latest = latestStatus(events);
      if (!latest) return;
      const outcome = await ctx.client.send({ method: 'GET', path: actionPath(s.id) });
      if (outcome.kind !== 'response' || outcome.status !== 200) {
        const why = s.known
          ? `GET /actions/${s.id} answered ${describeAnswer(outcome)}`
          : `event ${field(latest.event, 'eventId') ?? ''} names action ${s.id}, which is not one of this run's test actions, and GET /actions/${s.id} answered ${describeAnswer(outcome)}`;
        problemAt(
          f,
          ctx,
          outcome,
          `${why}; expected the action whose status the events report`,
          'WEBHOOK-STATUS-REFLECTED',
        );
        return;
      }
      // The same order as created: this GET, made for the status, shows its identity in the action's latest state.
      for (const m of compareIdentity('GET /actions/{id}', s.answer, outcome.json).mismatches)
        problemAt(
          f,
          ctx,
          outcome,
          `GET /actions/${s.id} (after its events) ${describeMismatch(m)}`,
          'ACTION-STATUS-SAME-IDENTITY',
        );
      const status = (outcome.json as { status?: unknown } | null)?.status;
      if (status !== latest.status) {
        problemAt(
          f,
          ctx,
          outcome,
          `the latest event for action ${s.label} (event ${field(latest.event, 'eventId') ?? '?'}) says newStatus ${latest.status}; GET /actions/${s.id} says ${JSON.stringify(status)}`,
          'WEBHOOK-STATUS-REFLECTED',
        );
      } else keepEvidence(f, outcome);
    }),
  );
}

/** Every event about a test action names the same order: any identity field it carries agrees with creation. */
function eventIdentities(f: Findings, actions: readonly TestAction[], accepted: readonly ReceivedWebhook[]): void {
  for (const w of accepted) {
    if (w.duplicate) continue;
    const actionId = field(w, 'actionId');
    const a = actions.find((x) => names(x, actionId));
    // An event that names a test action by another of its ids: the same order, named so no lookup by id finds it.
    for (const x of a ? [] : actions) {
      const other = otherIdNamed(actionId, x.answer);
      if (other)
        f.problem(
          `event ${field(w, 'eventId') ?? '?'} names action ${x.publicId} by its ${other} ${JSON.stringify(actionId)}; an event's actionId is the action's id or publicId`,
          'ACTION-STATUS-SAME-IDENTITY',
        );
    }
    if (!a?.answer) continue;
    for (const m of compareIdentity('webhook event', a.answer, w.event).mismatches)
      f.problem(
        `event ${field(w, 'eventId') ?? '?'} about action ${a.publicId} ${describeMismatch(m)}`,
        'ACTION-STATUS-SAME-IDENTITY',
      );
  }
}

export const check: CheckDefinition = {
  id: 'webhook',
  group: 'transactional',
  title: 'Signed status events for every test action',
  rule: 'Contract, Events: "Each created test order during certification dispatches a signed action.status_updated event"; Authentication §4: x-service-signature = hex HMAC-SHA256 of the raw body with the webhook secret; Provider route behaviour rule 3: "GET /actions/{id} reflects the same order identity and authoritative state as the webhook events"',
  requirements: [
    'WEBHOOK-SIGNATURE',
    'WEBHOOK-EVENT-TYPE',
    'WEBHOOK-CANONICAL-HEADER',
    'WEBHOOK-CONTENT-TYPE-JSON',
    'WEBHOOK-EVENT-REQUIRED-FIELDS',
    'WEBHOOK-STATUS-REFLECTED',
    'ACTION-STATUS-SAME-IDENTITY',
    'WEBHOOK-SLUG-ROUTE',
    'WEBHOOK-TERMINAL-REASON',
    'REASON-NO-SECRETS',
    'ACTION-STATUS-ENUM',
    'TIMESTAMPS-ISO8601',
  ],
  needs: ['payment-pending'],
  appliesTo: { operations: [], description: 'TRANSACTIONAL providers and any provider that declares WEBHOOK' },
  skipReason: (a) =>
    a.profile === 'TRANSACTIONAL' || a.declared.has('WEBHOOK')
      ? undefined
      : 'WEBHOOK is not declared and the profile is not TRANSACTIONAL',
  after: [
    'payment-pending',
    'idempotency',
    'cancel',
    'quote-expiry',
    'quote-binding',
    'action-validation',
    'checkout-click',
    // lifecycle cancels the orders it explored: their events and GET agree only once it is done.
    'lifecycle',
    // The authentication probes create (and cancel) an action of their own where POST requests may be sent.
    'wrong-credential',
    'signature',
  ],
  async run(ctx) {
    const f = new Findings();
    const info = await ctx.resources.providerInfo();
    // The events are about test actions; without one there is nothing to expect (skip naming payment-pending).
    const pending = await ctx.resources.pendingAction();
    const url = ctx.webhooks.urlFor(info.slug);
    const actions = [...ctx.resources.createdActions()];
    const ours = (w: ReceivedWebhook) => isOwnEvent(w, info.slug, actions);
    const missing = await awaitActionEvents(ctx, actions, ours);

    f.reproduce = sendEventCommand(ctx.config, url, info.slug, actions[0]?.id);
    const received = thisRun(ctx.webhooks.all().filter(ours), actions);
    f.webhookTimeline = received.map(timelineEntry);
    if (received.length === 0) {
      // The creation that should have produced an event is the evidence.
      keepEvidence(f, pending.response);
      f.problem(
        `no webhook event arrived at ${url} within ${ctx.config.webhookTimeout} ms; is the provider's webhook URL set to it?${ignoredHint(ctx.webhooks.all(), info.slug, actions)}`,
        'WEBHOOK-EVENT-TYPE',
      );
      return f.outcome('');
    }
    const hint = missing.length > 0 ? ignoredHint(ctx.webhooks.all(), info.slug, actions) : '';
    for (const m of missing) f.problem(`${m} at ${url}${hint}`, 'WEBHOOK-EVENT-TYPE');
    for (const p of rejectionProblems(received)) f.problem(p, rejectionRequirement(p));

    const accepted = received.filter(isAccepted);
    for (const w of accepted) {
      const label = `event ${field(w, 'eventId') ?? '?'}`;
      const type = field(w, 'eventType');
      if (type !== STATUS_EVENT)
        f.warn(
          `${label} has eventType ${type ?? '(none)'}; the documented type is ${STATUS_EVENT}`,
          'WEBHOOK-EVENT-TYPE',
        );
      const slug = field(w, 'providerSlug');
      if (slug !== info.slug)
        f.problem(
          `${label} names providerSlug ${slug ?? '(none)'}; GET /provider-info says ${info.slug}`,
          'WEBHOOK-SLUG-ROUTE',
        );
      if (w.slug === null)
        f.warn(`${label} used the legacy slugless route; new integrations post to ${url}`, 'WEBHOOK-SLUG-ROUTE');
      if (!w.duplicate && w.event) {
        for (const r of reasonProblems(w.event, label, ctx.secrets)) f.problem(r.message, r.requirement);
        // The receiver accepted it; what the schema lets pass but finds ambiguous (offsetless time, own reason code) is a warning.
        schemaWarnings(f, ctx.contract.validate('NormalizedWebhookEvent', w.event).warnings, label);
      }
    }
    for (const a of actions) {
      const about = accepted.filter((w) => names(a, field(w, 'actionId')));
      if (about.length > 0 && !about.some((w) => field(w, 'eventType') === STATUS_EVENT)) {
        const types = [...new Set(about.map((w) => field(w, 'eventType') ?? '(none)'))].join(', ');
        f.problem(
          `the events about test action ${a.publicId} have eventType ${types}; each created test order dispatches a signed ${STATUS_EVENT} event`,
          'WEBHOOK-EVENT-TYPE',
        );
      }
    }
    judgeOwnReferences(f, actions);
    eventIdentities(f, actions, accepted);
    await compareWithStatus(ctx, f, actions, accepted);
    const cancelled = actions.filter((a) => a.cancelled).length;
    return f.outcome(
      `${accepted.length} verified event(s) arrived at ${url} for ${actions.length} test action(s)${cancelled > 0 ? ` (${cancelled} cancelled)` : ''}; the latest statuses agree with GET /actions/{id}`,
    );
  },
};
