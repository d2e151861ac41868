import type { components } from '../../contract/generated/contract-types.js';
import type { Exchange } from '../../model/exchange.js';
import type { RunReport } from '../../model/report.js';
import type { ReceivedWebhook } from '../../model/webhooks.js';

/**
 * The provider's dashboard in the reference core: the test actions its certifications created, read from
 * the recorded exchanges of the stored reports, with the webhook events the core received for each.
 */

const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'FAILED']);
/** Actions kept per provider: a hostile report cannot make the dashboard unbounded. */
export const MAX_TEST_ACTIONS = 1_000;

type Schemas = components['schemas'];

/** A line of a stored action, each field kept only when the stored report had it with the right type. */
type ActionLine = Schemas['ActionLine'];

type TimelineEntry = Schemas['CoreTimelineEntry'];

/** One test action as the dashboard knows it: the API's CoreActionDetail, before the phone number is masked. */
export type TestAction = Omit<Schemas['CoreActionDetail'], 'customerPhoneMasked'> & { customerPhone?: string };

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const obj = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

function json(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    return obj(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** The action a provider answered, when the exchange is a 2xx POST /actions or GET /actions/{id}. */
function answeredAction(x: Exchange): { kind: 'created' | 'read'; body: Record<string, unknown> } | undefined {
  const status = x.response?.status ?? 0;
  if (status < 200 || status > 299) return undefined;
  let path: string;
  try {
    path = new URL(x.request.url).pathname;
  } catch {
    return undefined;
  }
  const body = json(x.response?.body);
  if (!body || str(body['id']) === undefined) return undefined;
  if (x.request.method === 'POST' && /\/actions\/?$/.test(path)) return { kind: 'created', body };
  if (x.request.method === 'GET' && /\/actions\/[^/]+\/?$/.test(path)) return { kind: 'read', body };
  return undefined;
}

function lines(value: unknown): ActionLine[] {
  if (!Array.isArray(value)) return [];
  return value.slice(0, 100).map((l) => {
    const line = obj(l) ?? {};
    const out: ActionLine = {};
    for (const key of ['offeringId', 'offeringTitle'] as const) {
      const v = str(line[key]);
      if (v !== undefined) out[key] = v;
    }
    for (const key of ['quantity', 'unitPrice', 'optionsTotal', 'lineTotal'] as const) {
      const v = num(line[key]);
      if (v !== undefined) out[key] = v;
    }
    return out;
  });
}

function fromBody(body: Record<string, unknown>, certificationId: string, at: string): TestAction {
  const customer = obj(body['customer']);
  const id = str(body['id']) ?? '';
  const optional = {
    externalActionId: str(body['externalActionId']),
    paymentStatus: str(body['paymentStatus']),
    total: num(body['total']),
    subtotal: num(body['subtotal']),
    currency: str(body['currency']),
    customerName: str(customer?.['name']),
    customerPhone: str(customer?.['phone']),
    fulfillmentType: str(body['fulfillmentType']),
  };
  const action: TestAction = {
    id,
    publicId: str(body['publicId']) ?? id,
    certificationId,
    status: str(body['status']) ?? 'CREATED',
    paymentStatusSource: 'PROVIDER_REPORTED',
    lines: lines(body['lines']),
    createdAt: str(body['createdAt']) ?? at,
    timeline: [],
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) Object.assign(action, { [key]: value });
  return action;
}

/** The test actions of these certifications (newest certification first), without webhook events yet. */
export function actionsOfReports(records: readonly { id: string; report: RunReport }[]): TestAction[] {
  const byId = new Map<string, TestAction>();
  for (const record of [...records].reverse()) {
    for (const check of record.report.checks ?? []) {
      for (const exchange of check.evidence ?? []) {
        const answered = answeredAction(exchange);
        if (!answered) continue;
        const id = str(answered.body['id']) ?? '';
        const existing = byId.get(id);
        const at = record.report.startedAt;
        if (!existing) {
          if (byId.size >= MAX_TEST_ACTIONS) continue;
          const action = fromBody(answered.body, record.id, at);
          action.timeline.push({ at: action.createdAt, source: 'PROVIDER_API', status: action.status });
          byId.set(id, action);
          continue;
        }
        const status = str(answered.body['status']);
        const paymentStatus = str(answered.body['paymentStatus']);
        if (status && status !== existing.status) {
          existing.status = status;
          existing.timeline.push({ at: str(answered.body['updatedAt']) ?? at, source: 'PROVIDER_API', status });
        }
        if (paymentStatus) existing.paymentStatus = paymentStatus;
      }
    }
  }
  return [...byId.values()];
}

/** Add the verified webhook events about each action (by id or publicId), in time order. */
export function withWebhooks(actions: TestAction[], events: readonly ReceivedWebhook[]): TestAction[] {
  const index = new Map<string, TestAction>();
  for (const a of actions) {
    index.set(a.id, a);
    index.set(a.publicId, a);
  }
  for (const w of events) {
    if (!w.verified || w.duplicate || !w.event) continue;
    const action = index.get(str(w.event['actionId']) ?? '');
    if (!action) continue;
    const status = str(w.event['newStatus']);
    const entry: TimelineEntry = { at: str(w.event['timestamp']) ?? w.receivedAt, source: 'WEBHOOK' };
    for (const [key, value] of [
      ['status', status],
      ['eventId', str(w.event['eventId'])],
      ['eventType', str(w.event['eventType'])],
      ['reasonCode', str(w.event['reasonCode'])],
      ['reason', str(w.event['reason']) ?? str(w.event['description'])],
    ] as const) {
      if (value !== undefined) entry[key] = value;
    }
    action.timeline.push(entry);
    if (status) action.status = status;
    const payment = str(w.event['paymentStatus']);
    if (payment) action.paymentStatus = payment;
    if ((status === 'CANCELLED' || status === 'FAILED') && (entry.reasonCode || entry.reason)) {
      action.explanation = {
        ...(entry.reasonCode ? { reasonCode: entry.reasonCode } : {}),
        ...(entry.reason ? { reason: entry.reason } : {}),
      };
    }
  }
  for (const a of actions) a.timeline.sort((x, y) => Date.parse(x.at) - Date.parse(y.at));
  return actions;
}

/** The dashboard's counts (the contract's DashboardResponse.metrics), every one given. */
export type DashboardMetrics = Required<NonNullable<Schemas['DashboardResponse']['metrics']>>;

export function metricsOf(actions: readonly TestAction[]): DashboardMetrics {
  return {
    totalActions: actions.length,
    pendingActions: actions.filter((a) => !TERMINAL.has(a.status)).length,
    paidActions: actions.filter((a) => a.paymentStatus === 'PAID').length,
    completedActions: actions.filter((a) => a.status === 'COMPLETED').length,
    failedActions: actions.filter((a) => a.status === 'FAILED').length,
  };
}

/** "+49 151 2345 6789" → "+49 1•• •••• ••89": the middle digits masked, the first three and last two kept. */
export function maskPhone(phone: string): string {
  const digits = [...phone].filter((c) => c >= '0' && c <= '9').length;
  let seen = 0;
  return [...phone]
    .map((c) => {
      if (c < '0' || c > '9') return c;
      seen++;
      return seen <= 3 || seen > digits - 2 ? c : '•';
    })
    .join('');
}
