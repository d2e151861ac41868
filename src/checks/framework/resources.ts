import type { SchemaProblem } from '../../contract/types.js';
import type { HttpOutcome, HttpResponse } from '../../http/types.js';
import type { CheckId } from '../../model/check-ids.js';
import type { RequirementId } from '../../model/findings.js';
import type { ActionView, CatalogView, ProviderInfoView, QuoteItemInput, QuoteView } from './views.js';

/**
 * Thrown by a resource when what a check needs could not be obtained because another check's subject is
 * broken; the runner turns it into `skip` naming that check (no cascade of red for one root cause).
 */
export class PrerequisiteError extends Error {
  override readonly name = 'PrerequisiteError';
  /** The contract rule the broken answer violates, and the answer, for the owning check to report. */
  readonly requirement: RequirementId | undefined;
  readonly evidence: HttpOutcome | undefined;
  constructor(
    readonly checkId: CheckId,
    message: string,
    detail: { requirement?: RequirementId; evidence?: HttpOutcome } = {},
  ) {
    super(message);
    this.requirement = detail.requirement;
    this.evidence = detail.evidence;
  }
}

/**
 * Thrown when provcert itself was too slow to judge: every quote it took had expired by its own clock before its
 * POST /actions was answered. The runner reports the check as an error (could not judge), never as the provider's
 * failure.
 */
export class ProvcertTooSlowError extends Error {
  override readonly name = 'ProvcertTooSlowError';
  constructor(
    message: string,
    /** The QUOTE_EXPIRED answers, kept as the check's evidence. */
    readonly evidence: readonly HttpOutcome[] = [],
  ) {
    super(message);
  }
}

/** The selection quoted for certification (manifest.certificationInput, else derived from the catalog). */
export interface Selection {
  locationId?: string;
  items: QuoteItemInput[];
  customer: { name: string; phone: string };
  destination: { raw: string };
  /** Where it came from, for the report. */
  source: 'certificationInput' | 'catalog';
}

export interface QuoteAttempt {
  outcome: HttpOutcome;
  /** Set when the answer was 200 and schema-valid. */
  quote?: QuoteView;
  /** Schema problems when the answer was 200 but invalid. */
  schemaProblems?: readonly SchemaProblem[];
  /** What the schema lets pass but flags as ambiguous (an offsetless timestamp…). */
  schemaWarnings?: readonly SchemaProblem[];
  /** Time the answer arrived (clock ms), to judge expiresAt against. */
  answeredAt: number;
}

export interface CreatedAction {
  /** Set when the quote expired by provcert's own delay and was taken again: what happened, for the check's message. */
  requoted?: { note: string; evidence: readonly HttpOutcome[] };
  response: HttpResponse;
  /** Schema warnings on the creation answer (an offsetless timestamp…). */
  schemaWarnings: readonly SchemaProblem[];
  action: ActionView;
  quote: QuoteView;
  idempotencyKey: string;
  body: Record<string, unknown>;
}

/**
 * Shared, memoized test data. Concurrent checks share one GET /provider-info, one GET /catalog and one
 * pending action; each method throws PrerequisiteError when its producer check's subject is broken.
 */
export interface Resources {
  providerInfo(): Promise<ProviderInfoView>;
  catalog(): Promise<CatalogView>;
  selection(): Promise<Selection>;
  /**
   * A selection derived from the catalog that exercises the math (a line of quantity 2 with a non-zero
   * option where the catalog has one, and a second line where it has two available offerings).
   */
  derivedSelection(): Promise<Selection>;
  /** POST /quote for the selection (or an explicit body); never memoized: each call is a new quote. */
  requestQuote(body?: Record<string, unknown>): Promise<QuoteAttempt>;
  /** A new valid quote for the selection, or PrerequisiteError('quote-math'). */
  freshQuote(): Promise<{ quote: QuoteView; answeredAt: number }>;
  /** The CreateActionInput body for a quote (userConfirmed true, customer, destination, items, key). */
  actionBody(quote: QuoteView, idempotencyKey: string): Record<string, unknown>;
  /** Deterministic idempotency key from the run seed and a label (recorded for replay). */
  idempotencyKey(label: string): string;
  /** The first created action (memoized), from a fresh quote; PrerequisiteError('payment-pending') on failure. */
  pendingAction(): Promise<CreatedAction>;
  /** Create an action from a fresh quote under the given key label (not memoized). */
  createAction(label: string): Promise<CreatedAction>;
  /** Every action created during the run, for the webhook check; `answer` is its creation answer when kept. */
  createdActions(): readonly { id: string; publicId: string; cancelled: boolean; answer?: Record<string, unknown> }[];
  markCancelled(actionId: string): void;
  /** Record an action created outside createAction (e.g. an expired quote wrongly accepted). */
  noteCreatedAction(action: { id: string; publicId?: string }, answer?: unknown): void;
  /** Helper: GET a path and validate the 200 body against the operation's response schema. */
  getValidated(
    path: string,
    operation: string,
    query?: Record<string, string | number | boolean>,
  ): Promise<{ outcome: HttpOutcome; problems: string[] }>;
}
