import type { components } from '../../../contract/generated/contract-types.js';
import { parseIsoTimestamp } from '../../../contract/timestamp.js';
import { isRecord } from '../../../util/json.js';
import type { ActionView } from '../../framework/views.js';

/**
 * One order identity across every view of it (issue 33 item 2): contract rule 3, "GET /actions/{id} reflects the
 * same order identity and authoritative state as the webhook events", and the CancelActionResult's actionId and
 * externalActionId. Every NormalizedAction field is classed here (the Record's type makes a new spec field fail to
 * compile until it is classed); the views say how they name the order. Pure.
 */

type ActionField = keyof ActionView;

/** identity: the same in every view that carries it. state: may advance (judged against the events elsewhere). */
export const ACTION_FIELDS: Record<ActionField, 'identity' | 'state' | { open: string }> = {
  id: 'identity',
  publicId: 'identity',
  providerSlug: 'identity',
  externalActionId: 'identity',
  quoteId: 'identity',
  lines: 'identity',
  subtotal: 'identity',
  total: 'identity',
  fees: 'identity',
  discount: 'identity',
  currency: 'identity',
  customer: 'identity',
  fulfillmentType: 'identity',
  createdAt: 'identity',
  status: 'state',
  paymentStatus: 'state',
  updatedAt: 'state',
  // A cancelled or paid action no longer offers its checkout link.
  nextAction: 'state',
  metadata: { open: 'an open object; the contract names none of its fields' },
};

export const IDENTITY_FIELDS = (Object.keys(ACTION_FIELDS) as ActionField[]).filter(
  (f) => ACTION_FIELDS[f] === 'identity',
);

/** The fields of an action line, compared line by line in any order. */
const LINE_FIELDS: Record<keyof components['schemas']['ActionLine'], true> = {
  offeringId: true,
  offeringTitle: true,
  quantity: true,
  unitPrice: true,
  optionsTotal: true,
  lineTotal: true,
};

export type IdentityView = 'GET /actions/{id}' | 'cancel result' | 'webhook event';

/**
 * How each view carries the order. GET /actions/{id} is a NormalizedAction: every identity field by its name. The
 * cancel result names the order by actionId (the public reference; judged by the cancel check) and carries
 * externalActionId separately; an event names it by actionId (id or publicId; judged by the webhook check). Any
 * other identity field a result or event carries by its NormalizedAction name must agree too (their shapes are
 * open). `skip` lists fields a view may use for something else.
 */
export const IDENTITY_VIEWS: Record<IdentityView, { carries: 'all' | 'when present'; skip: readonly ActionField[] }> = {
  'GET /actions/{id}': { carries: 'all', skip: [] },
  'cancel result': { carries: 'when present', skip: [] },
  // An event's own fields: `id` could name the event, not the order.
  'webhook event': { carries: 'when present', skip: ['id'] },
};

export interface IdentityMismatch {
  field: ActionField;
  found: unknown;
  expected: unknown;
}

const lineKey = (line: unknown): string => {
  if (!isRecord(line)) return JSON.stringify(line);
  const kept = (Object.keys(LINE_FIELDS) as (keyof typeof LINE_FIELDS)[]).map((k) => [k, line[k]]);
  return JSON.stringify(kept);
};

const sameLines = (a: unknown, b: unknown): boolean =>
  Array.isArray(a) &&
  Array.isArray(b) &&
  a.length === b.length &&
  JSON.stringify(a.map(lineKey).sort()) === JSON.stringify(b.map(lineKey).sort());

/** Whether two values of one field name the same thing: lines in any order, timestamps by instant. */
export function sameValue(field: ActionField, a: unknown, b: unknown): boolean {
  if (field === 'lines') return sameLines(a, b);
  if (field === 'createdAt') {
    const [x, y] = [parseIsoTimestamp(a)?.epochMs, parseIsoTimestamp(b)?.epochMs];
    return x !== undefined && x === y ? true : a === b;
  }
  if (isRecord(a) && isRecord(b))
    return Object.keys({ ...a, ...b }).every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The identity fields where a view disagrees with the creation answer, and those a NormalizedAction view leaves
 * out that creation gave (an omitted optional field is never a failure: the caller warns).
 */
export function compareIdentity(
  view: IdentityView,
  created: unknown,
  seen: unknown,
): { mismatches: IdentityMismatch[]; absent: ActionField[] } {
  const mismatches: IdentityMismatch[] = [];
  const absent: ActionField[] = [];
  if (!isRecord(created) || !isRecord(seen)) return { mismatches, absent };
  const { carries, skip } = IDENTITY_VIEWS[view];
  for (const field of IDENTITY_FIELDS) {
    if (skip.includes(field) || created[field] === undefined) continue;
    if (seen[field] === undefined) {
      if (carries === 'all') absent.push(field);
      continue;
    }
    if (!sameValue(field, seen[field], created[field]))
      mismatches.push({ field, found: seen[field], expected: created[field] });
  }
  return { mismatches, absent };
}

/** A field's value for a message: lines as offering×quantity = lineTotal, the rest as JSON. */
export function showValue(field: ActionField, value: unknown): string {
  if (field !== 'lines' || !Array.isArray(value)) return JSON.stringify(value);
  return `[${value
    .map((l) => (isRecord(l) ? `${String(l.offeringId)}×${String(l.quantity)} = ${String(l.lineTotal)}` : '?'))
    .join(', ')}]`;
}

/** "reports externalActionId "x"; creation answered "y": not the same order" */
export const describeMismatch = (m: IdentityMismatch): string => {
  const [found, expected] = [showValue(m.field, m.found), showValue(m.field, m.expected)];
  const detail =
    found === expected ? `${JSON.stringify(m.found)}; creation answered ${JSON.stringify(m.expected)}` : '';
  return `reports ${m.field} ${detail || `${found}; creation answered ${expected}`}: not the same order`;
};

/**
 * The identity field an event's actionId names the order by when it is neither its id nor its publicId (DECISIONS:
 * "actionId in an event may carry the action's id or publicId"): its externalActionId or quoteId, else undefined.
 */
export function otherIdNamed(actionId: unknown, created: unknown): 'externalActionId' | 'quoteId' | undefined {
  if (typeof actionId !== 'string' || !isRecord(created)) return undefined;
  if (actionId === created['id'] || actionId === created['publicId']) return undefined;
  if (actionId === created['externalActionId']) return 'externalActionId';
  return actionId === created['quoteId'] ? 'quoteId' : undefined;
}

/** The references that name one order among others: each distinct action must have its own. */
export const OWN_REFERENCES = ['publicId', 'externalActionId'] as const;
export type OwnReference = (typeof OWN_REFERENCES)[number];

/** One reference value that two or more distinct actions (by id) carry. */
export interface SharedReference {
  field: OwnReference;
  value: string;
  ids: string[];
}

/**
 * References shared by distinct actions (told apart by their id): "publicId | string (public reference)",
 * "externalActionId | string (provider's own order id)". Each action is read from its creation answer, or from the
 * publicId provcert noted for it when the answer was not kept.
 */
export function sharedReferences(
  actions: readonly { id: string; publicId?: string; answer?: unknown }[],
): SharedReference[] {
  const shared: SharedReference[] = [];
  for (const field of OWN_REFERENCES) {
    const byValue = new Map<string, Set<string>>();
    for (const a of actions) {
      const fromAnswer = isRecord(a.answer) ? a.answer[field] : undefined;
      const value = fromAnswer ?? (field === 'publicId' && a.publicId !== a.id ? a.publicId : undefined);
      // An empty reference shared by two orders names neither: it counts as shared like any other value.
      if (typeof value !== 'string') continue;
      byValue.set(value, (byValue.get(value) ?? new Set()).add(a.id));
    }
    for (const [value, ids] of byValue) if (ids.size > 1) shared.push({ field, value, ids: [...ids] });
  }
  return shared;
}
