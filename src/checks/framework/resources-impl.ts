import type { Contract } from '../../contract/contract.js';
import { problemTexts } from '../../contract/explain.js';
import { describeBody } from '../../http/body.js';
import type { HttpOutcome, ProviderClient } from '../../http/types.js';
import type { CheckId } from '../../model/check-ids.js';
import type { RequirementId } from '../../model/findings.js';
import type { RunConfig } from '../../model/run-config.js';
import { isRecord } from '../../util/json.js';
import { schemaRequirement } from '../support/expect.js';
import { deriveItems } from '../support/selection.js';
import { requoteEvidence, sendWithFreshQuote } from './quote-retry.js';
import {
  type CreatedAction,
  PrerequisiteError,
  type QuoteAttempt,
  type Resources,
  type Selection,
} from './resources.js';
import type { Clock } from './types.js';
import type { ActionView, CatalogView, ProviderInfoView, QuoteView } from './views.js';

const DEFAULT_CUSTOMER = { name: 'Provcert Certification', phone: '+15550100000' };
const DEFAULT_DESTINATION = { raw: '1 Certification Street (provcert test order, do not fulfil)' };

/** One line saying why an outcome is not a usable 200 JSON answer, or undefined when it is. */
export function whyNotJson200(what: string, outcome: HttpOutcome): string | undefined {
  if (outcome.kind === 'failure') return `${what}: ${outcome.message}`;
  if (outcome.status !== 200) {
    const body = outcome.json as { code?: unknown; message?: unknown } | undefined;
    const said =
      outcome.bodyKind === 'json' && typeof body?.code === 'string'
        ? ` ${body.code}${typeof body.message === 'string' ? `: ${body.message}` : ''}`
        : '';
    return `${what} answered HTTP ${outcome.status}${said}${outcome.bodyKind === 'json' ? '' : ` with ${describeBody(outcome.bodyKind, outcome.contentType)}`}`;
  }
  if (outcome.bodyKind !== 'json') return `${what} answered ${describeBody(outcome.bodyKind, outcome.contentType)}`;
  return undefined;
}

function memo<T>(produce: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => (pending ??= produce());
}

export interface ResourceDeps {
  client: ProviderClient;
  contract: Contract;
  config: RunConfig;
  clock: Clock;
  /** A per-run nonce so a rerun with the same seed does not reuse the provider's stored keys. */
  runId: string;
}

export function createResources({ client, contract, config, clock, runId }: ResourceDeps): Resources {
  const created: { id: string; publicId: string; cancelled: boolean; answer?: Record<string, unknown> }[] = [];

  async function validatedGet(path: string, operation: string, query?: Record<string, string | number | boolean>) {
    const outcome = await client.send({ method: 'GET', path, ...(query ? { query } : {}) });
    if (outcome.kind !== 'response' || outcome.status !== 200 || outcome.bodyKind !== 'json')
      return { outcome, schemaProblems: [] };
    return { outcome, schemaProblems: contract.validateResponse(operation, 200, outcome.json)?.problems ?? [] };
  }

  async function getValidated(path: string, operation: string, query?: Record<string, string | number | boolean>) {
    const { outcome, schemaProblems } = await validatedGet(path, operation, query);
    return { outcome, problems: problemTexts(schemaProblems) };
  }

  /** The rules a resource's answer stands on: its route's, and its payload's required fields. */
  interface ResourceRules {
    route: RequirementId;
    fields: RequirementId;
  }

  async function validResource<T>(path: string, operation: string, owner: CheckId, rules: ResourceRules): Promise<T> {
    const { outcome, schemaProblems } = await validatedGet(path, operation);
    const notJson = whyNotJson200(`GET ${path}`, outcome);
    const first = schemaProblems[0];
    // The rule travels with the error: a check the selection left out is then failed on this observation.
    if (notJson) throw new PrerequisiteError(owner, notJson, { requirement: rules.route, evidence: outcome });
    if (first)
      throw new PrerequisiteError(owner, `GET ${path} does not match the schema (${problemTexts([first])[0]})`, {
        requirement: schemaRequirement(first, rules.fields, (outcome as { json: unknown }).json),
        evidence: outcome,
      });
    return (outcome as { json: unknown }).json as T;
  }

  const providerInfo = memo(() =>
    validResource<ProviderInfoView>('/provider-info', 'GET /provider-info', 'metadata', {
      route: 'ROUTE-PROVIDER-INFO',
      fields: 'PROVIDERINFO-REQUIRED-FIELDS',
    }),
  );
  const catalog = memo(() =>
    validResource<CatalogView>('/catalog', 'GET /catalog', 'catalog', {
      route: 'ROUTE-CATALOG',
      fields: 'CATALOG-REQUIRED-FIELDS',
    }),
  );

  const activeLocationId = memo(async (): Promise<string | undefined> => {
    const { outcome } = await getValidated('/locations', 'GET /locations');
    if (outcome.kind !== 'response' || !Array.isArray(outcome.json)) return undefined;
    const active = (outcome.json as { id?: unknown; isActive?: unknown }[]).find(
      (l) => l.isActive !== false && typeof l.id === 'string',
    );
    return active?.id as string | undefined;
  });

  const derivedSelection = memo(async (): Promise<Selection> => {
    const [info, cat] = await Promise.all([providerInfo(), catalog()]);
    const input = info.manifest?.certificationInput;
    const items = deriveItems(cat);
    if (items.length === 0) throw new PrerequisiteError('catalog', 'the catalog has no available offering to quote');
    const locationId =
      input?.locationId ?? (info.capabilities.includes('LOCATIONS') ? await activeLocationId() : undefined);
    return {
      ...(locationId ? { locationId } : {}),
      items,
      customer: { ...DEFAULT_CUSTOMER, ...input?.customer },
      destination: { ...DEFAULT_DESTINATION, ...input?.destination },
      source: 'catalog',
    };
  });

  const selection = memo(async (): Promise<Selection> => {
    const info = await providerInfo();
    const input = info.manifest?.certificationInput;
    if (!input?.items || input.items.length === 0) return derivedSelection();
    return {
      ...(input.locationId ? { locationId: input.locationId } : {}),
      items: input.items,
      customer: { ...DEFAULT_CUSTOMER, ...input.customer },
      destination: { ...DEFAULT_DESTINATION, ...input.destination },
      source: 'certificationInput',
    };
  });

  async function quoteBody(): Promise<Record<string, unknown>> {
    const [info, sel] = await Promise.all([providerInfo(), selection()]);
    resolvedSelection = sel;
    return { providerSlug: info.slug, ...(sel.locationId ? { locationId: sel.locationId } : {}), items: sel.items };
  }

  async function requestQuote(body?: Record<string, unknown>): Promise<QuoteAttempt> {
    const outcome = await client.send({ method: 'POST', path: '/quote', json: body ?? (await quoteBody()) });
    const answeredAt = clock.now();
    if (outcome.kind !== 'response' || outcome.status !== 200 || outcome.bodyKind !== 'json')
      return { outcome, answeredAt };
    const result = contract.validateResponse('POST /quote', 200, outcome.json);
    const warnings = result?.warnings.length ? { schemaWarnings: result.warnings } : {};
    if (result && !result.valid) return { outcome, answeredAt, schemaProblems: result.problems, ...warnings };
    return { outcome, answeredAt, quote: outcome.json as QuoteView, ...warnings };
  }

  async function freshQuote(): Promise<{ quote: QuoteView; answeredAt: number }> {
    const attempt = await requestQuote();
    if (attempt.quote) return { quote: attempt.quote, answeredAt: attempt.answeredAt };
    const notJson = whyNotJson200('POST /quote', attempt.outcome);
    const first = attempt.schemaProblems?.[0];
    const why = notJson ?? `POST /quote does not match the schema (${first?.text ?? 'invalid'})`;
    const requirement =
      notJson || !first
        ? 'ROUTE-QUOTE'
        : schemaRequirement(first, 'QUOTE-REQUIRED-FIELDS', (attempt.outcome as { json?: unknown }).json);
    throw new PrerequisiteError('quote-math', why, { requirement, evidence: attempt.outcome });
  }

  const idempotencyKey = (label: string): string => `provcert-${config.seed}-${runId}-${label}`;

  function actionBody(quote: QuoteView, key: string): Record<string, unknown> {
    // A quote exists only after its selection resolved (quoteBody), so this is always set here.
    const sel = resolvedSelection;
    return {
      idempotencyKey: key,
      providerSlug: quote.providerSlug,
      quoteId: quote.id,
      userConfirmed: true,
      customer: sel?.customer ?? DEFAULT_CUSTOMER,
      destination: sel?.destination ?? DEFAULT_DESTINATION,
      items: (sel?.items ?? []).map((i) => ({
        offeringId: i.offeringId,
        ...(i.variantId ? { variantId: i.variantId } : {}),
        quantity: i.quantity,
        ...(i.selectedOptions ? { selectedOptions: i.selectedOptions } : {}),
      })),
    };
  }
  let resolvedSelection: Selection | undefined;

  function noteCreatedAction(action: { id: string; publicId?: string }, answer?: unknown): void {
    if (created.some((c) => c.id === action.id)) return;
    // The creation answer, so later views of the order (GET, events) can be compared with it.
    const kept = isRecord(answer) ? { answer } : {};
    created.push({ id: action.id, publicId: action.publicId ?? action.id, cancelled: false, ...kept });
  }

  async function createAction(label: string): Promise<CreatedAction> {
    const sent = await sendWithFreshQuote({
      clock,
      first: await freshQuote(),
      requote: freshQuote,
      send: async (quote, attempt) => {
        // A fresh key per re-quote: the expired attempt's key stays bound to its own payload.
        const key = idempotencyKey(attempt === 0 ? label : `${label}-requote-${attempt}`);
        const body = actionBody(quote, key);
        return { key, body, outcome: await client.send({ method: 'POST', path: '/actions', json: body }) };
      },
      outcomes: (r) => [r.outcome],
    });
    const { quote } = sent;
    const { key, body, outcome } = sent.result;
    const requoted = requoteEvidence(sent);
    // A QUOTE_EXPIRED while the quote was valid, as provcert measured it: the provider cut its own validity, never
    // provcert's delay. It stands on ROUTE-ACTIONS here (no action could be created); quote-binding cites QUOTE-MIN-VALIDITY.
    if (sent.early !== undefined)
      throw new PrerequisiteError(
        'payment-pending',
        `POST /actions with quote ${quote.id} (expiresAt ${String(quote.expiresAt)}) ${sent.early}; the provider controls expiresAt and must honour it (QUOTE-MIN-VALIDITY)`,
        { requirement: 'ROUTE-ACTIONS', evidence: outcome },
      );
    const why = whyNotJson200('POST /actions', outcome);
    if (why || outcome.kind !== 'response')
      throw new PrerequisiteError('payment-pending', why ?? 'POST /actions failed', {
        requirement: 'ROUTE-ACTIONS',
        evidence: outcome,
      });
    const result = contract.validateResponse('POST /actions', 200, outcome.json);
    const first = result && !result.valid ? result.problems[0] : undefined;
    if (first) {
      throw new PrerequisiteError('payment-pending', `POST /actions does not match the schema (${first.text})`, {
        requirement: schemaRequirement(first, 'ACTION-REQUIRED-FIELDS', outcome.json),
        evidence: outcome,
      });
    }
    const action = outcome.json as ActionView;
    noteCreatedAction(action, outcome.json);
    return {
      response: outcome,
      action,
      quote,
      idempotencyKey: key,
      body,
      schemaWarnings: result?.warnings ?? [],
      ...(requoted ? { requoted } : {}),
    };
  }

  const pendingAction = memo(() => createAction('pending'));

  return {
    providerInfo,
    catalog,
    selection,
    derivedSelection,
    requestQuote,
    freshQuote,
    actionBody: (quote, key) => actionBody(quote, key),
    idempotencyKey,
    pendingAction,
    createAction,
    createdActions: () => created,
    markCancelled: (id) => {
      for (const c of created) if (c.id === id || c.publicId === id) c.cancelled = true;
    },
    noteCreatedAction,
    getValidated,
  };
}
