import { isRecord } from '../../../util/json.js';

/**
 * The lifecycle model beside the explorer (issue 33 item 3): what provcert knows of quotes, actions, idempotency keys
 * and states while it drives one generated command sequence, and what the contract then expects of each answer.
 * Pure: commands.ts sends the requests and asks this module what an answer must be.
 */

/** A quote of this sequence: expired once the sequence waited past its expiresAt. */
export interface ModelQuote {
  expired: boolean;
  /**
   * Taken when the check started, with the run's other expiring quotes: waiting for it ends with their waits, so the
   * wait costs the run no time of its own.
   */
  aged: boolean;
  /** The action created on it (one action per quote; a used quote is only used again once it expired). */
  usedBy?: number;
}

/** An action of this sequence; action i was created under key i, with quote `quote`. */
export interface ModelAction {
  quote: number;
  status: 'open' | 'cancelled';
}

export interface LifecycleModel {
  quotes: ModelQuote[];
  actions: ModelAction[];
  /** Whether this sequence already waited for its quotes to expire (once per sequence). */
  waited: boolean;
}

/** Most quotes and actions in one sequence: enough for every state, small enough to shrink quickly. */
export const MAX_QUOTES = 2;
export const MAX_ACTIONS = 2;

/** A sequence starts with one fresh quote (taken by its setup). */
export const initialModel = (aged = false): LifecycleModel => ({
  quotes: [{ expired: false, aged }],
  actions: [],
  waited: false,
});

/** What the provider declares beside the required routes, and what the run still allows. */
export interface Allowances {
  cancel: boolean;
  paymentOptions: boolean;
  /**
   * Orders the check may still create (its budget), and whether it may still wait for an expiry: a wait for aged
   * quotes only (`aged`) overlaps the run's other waits, a wait for a fresh quote costs a validity of its own.
   */
  ordersLeft: () => number;
  mayWaitForExpiry: (aged: boolean) => boolean;
}

/** A field of CreateActionInput a changed repeat alters (the same key then carries another payload). */
export const CHANGES = ['customer name', 'customer phone', 'destination', 'quantity'] as const;
export type Change = (typeof CHANGES)[number];

// ── preconditions (each command's `check`) ──

export const canQuote = (m: LifecycleModel): boolean => m.quotes.length < MAX_QUOTES;

/** A fresh key on a quote: an unused quote, or a used one after it expired (it must then create nothing). */
export function canCreate(m: LifecycleModel, quote: number, a: Allowances): boolean {
  const q = m.quotes[quote];
  if (!q || m.actions.length >= MAX_ACTIONS) return false;
  if (q.expired) return true;
  return q.usedBy === undefined && a.ordersLeft() > 0;
}

export const hasAction = (m: LifecycleModel, action: number): boolean => action < m.actions.length;

export const canCancel = (m: LifecycleModel, action: number, a: Allowances): boolean =>
  a.cancel && m.actions[action]?.status === 'open';

export function canWaitForExpiry(m: LifecycleModel, a: Allowances): boolean {
  const pending = m.quotes.filter((q) => !q.expired);
  return !m.waited && pending.length > 0 && a.mayWaitForExpiry(pending.every((q) => q.aged));
}

// ── transitions ──

export function created(m: LifecycleModel, quote: number): number {
  m.actions.push({ quote, status: 'open' });
  const index = m.actions.length - 1;
  const q = m.quotes[quote];
  if (q) q.usedBy = index;
  return index;
}

export function cancelled(m: LifecycleModel, action: number): void {
  const a = m.actions[action];
  if (a) a.status = 'cancelled';
}

export function expiredAll(m: LifecycleModel): void {
  for (const q of m.quotes) q.expired = true;
  m.waited = true;
}

/** "open", "cancelled", "open, its quote expired": the state a message names. */
export function stateOf(m: LifecycleModel, action: number): string {
  const a = m.actions[action];
  if (!a) return 'unknown';
  const expired = m.quotes[a.quote]?.expired === true;
  return `${a.status}${expired ? ', its quote expired' : ''}`;
}

// ── the changed payload ──

/** The body with one field changed, so the same key carries another payload. */
export function changedBody(body: Record<string, unknown>, change: Change): Record<string, unknown> {
  const customer = isRecord(body['customer']) ? body['customer'] : {};
  const destination = isRecord(body['destination']) ? body['destination'] : {};
  switch (change) {
    case 'customer name':
      return { ...body, customer: { ...customer, name: `${String(customer['name'] ?? 'Provcert')} (changed)` } };
    case 'customer phone':
      return { ...body, customer: { ...customer, phone: '+15550100999' } };
    case 'destination':
      return { ...body, destination: { ...destination, raw: `${String(destination['raw'] ?? '')} (changed)` } };
    case 'quantity': {
      const items = Array.isArray(body['items']) ? body['items'] : [];
      const [first, ...rest] = items;
      if (!isRecord(first)) return { ...body, items: [{ quantity: 1 }] };
      const quantity = typeof first['quantity'] === 'number' ? first['quantity'] + 1 : 2;
      return { ...body, items: [{ ...first, quantity }, ...rest] };
    }
  }
}

// ── one order identity across the views ──

/** The identity fields every view of an action must agree on, when both views carry them. */
const IDENTITY_FIELDS = ['id', 'publicId', 'externalActionId', 'quoteId', 'subtotal', 'total', 'currency'] as const;
const LINE_FIELDS = ['offeringId', 'quantity', 'unitPrice', 'optionsTotal', 'lineTotal'] as const;

const show = (value: unknown): string => JSON.stringify(value) ?? 'undefined';

/**
 * Where `view` (a repeat's answer, GET) names another order than `first` (the creation answer): one phrase per
 * differing field. A field one of them omits is no difference (optional fields may be left out of one view).
 */
export function identityDifferences(first: unknown, view: unknown): string[] {
  if (!isRecord(first) || !isRecord(view)) return ['the answer is not an action'];
  const differences: string[] = [];
  for (const field of IDENTITY_FIELDS) {
    const a = first[field];
    const b = view[field];
    if (a !== undefined && b !== undefined && show(a) !== show(b))
      differences.push(`${field} ${show(b)} (was ${show(a)})`);
  }
  const linesA = Array.isArray(first['lines']) ? first['lines'] : undefined;
  const linesB = Array.isArray(view['lines']) ? view['lines'] : undefined;
  if (linesA && linesB) {
    if (linesA.length !== linesB.length) differences.push(`${linesB.length} line(s) (was ${linesA.length})`);
    else
      linesA.forEach((lineA, i) => {
        const lineB = linesB[i];
        if (!isRecord(lineA) || !isRecord(lineB)) return;
        for (const field of LINE_FIELDS) {
          const a = lineA[field];
          const b = lineB[field];
          if (a !== undefined && b !== undefined && show(a) !== show(b))
            differences.push(`line ${i + 1} ${field} ${show(b)} (was ${show(a)})`);
        }
      });
  }
  return differences;
}

/** Whether a cancel result's actionId names the action (its public reference, or its id). */
export function cancelNamesAction(first: unknown, result: unknown): boolean {
  if (!isRecord(first) || !isRecord(result)) return false;
  const actionId = result['actionId'];
  return actionId !== undefined && (actionId === first['publicId'] || actionId === first['id']);
}

// ── the shortest sequence, as the finding shows it ──

export interface Step {
  /** "create on quote 1", "repeat action 1 with a changed customer name (action cancelled)". */
  label: string;
  /** "POST /actions → HTTP 200 DK-1001". */
  answer: string;
  /** A shell command that sends the step's request again (credential by reference). */
  curl?: string;
}

/** "1. quote → HTTP 200 q_1; 2. create …": the steps on one line. */
export const describeSteps = (steps: readonly Step[]): string =>
  steps.map((s, i) => `${i + 1}. ${s.label} (${s.answer})`).join('; ');

/** One curl line per step, each preceded by a comment naming the step. */
export const reproduceSteps = (steps: readonly Step[]): string =>
  steps
    .filter((s) => s.curl !== undefined)
    .map((s) => `# ${steps.indexOf(s) + 1}. ${s.label}\n${s.curl}`)
    .join('\n');
