import type { HttpOutcome, ProviderRequest } from '../http/types.js';
import { CHECK_IDS } from '../model/check-ids.js';
import type { RequirementId } from '../model/findings.js';
import { PrerequisiteError } from './framework/resources.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { keepEvidence } from './support/evidence.js';
import { describeAnswer, errorCode, expectError } from './support/expect.js';
import { malformedQuotes } from './support/probe-tables/malformed-quote.js';
import { otherMethods, postingCapabilities } from './support/probe-tables/other-methods.js';
import { queryInputs } from './support/probe-tables/query-inputs.js';
import { quoteProbeBody } from './support/quote-probe.js';

interface Probe {
  what: string;
  request: ProviderRequest;
  /** The answer the contract prescribes; absent = this check judges only the shape of an error answer. */
  expect?: { status: number; code: string };
  /** Whether a 2xx answer is worth a warning here (otherwise another check owns that rule). */
  warnOnSuccess?: string;
  /** A malformed request: only a 4xx ErrorResponse answers it (a 5xx is a crash, a 2xx accepted it). */
  clientError?: true;
  /** A listed path with a method the route table does not list for it: an endpoint that does not exist. */
  otherMethod?: true;
  /** The requirement a wrong status stands on, when not the check's primary one. */
  requirement?: RequirementId;
}

/** Any 4xx or 5xx. */
const ERROR_STATUSES = Array.from({ length: 200 }, (_, i) => 400 + i);
/** Any 4xx: "| 400 | INVALID_ARGUMENT | invalid parameter or validation failure |", leniently any client error. */
const CLIENT_ERROR_STATUSES = ERROR_STATUSES.slice(0, 100);

async function declaredCapabilities(ctx: CheckContext): Promise<string[]> {
  try {
    return (await ctx.resources.providerInfo()).capabilities;
  } catch (error) {
    if (error instanceof PrerequisiteError) return [];
    throw error;
  }
}

/** Safe GET probes that must be answered with errors (no request here can create anything). */
async function probes(ctx: CheckContext): Promise<Probe[]> {
  const seed = ctx.config.seed;
  const declared = await declaredCapabilities(ctx);
  // Unknown ids: their status is judged by offering and action-status; here only the error body's shape.
  const list: Probe[] = [
    {
      what: `unknown route GET /provcert-unknown-route-${seed}`,
      request: { method: 'GET', path: `/provcert-unknown-route-${seed}` },
      expect: { status: 404, code: 'NOT_FOUND' },
    },
    {
      what: `unknown offering GET /offerings/provcert-unknown-${seed}`,
      request: { method: 'GET', path: `/offerings/provcert-unknown-${seed}` },
    },
  ];
  if (declared.includes('ACTION_STATUS')) {
    list.push({
      what: `unknown action GET /actions/provcert-unknown-${seed}`,
      request: { method: 'GET', path: `/actions/provcert-unknown-${seed}` },
    });
  }
  // An action id that does not exist on its sub-routes: no other check asks them for one (a crash here was a hole
  // the mutation bench found). Cancel is a POST: only where the environment is declared safe.
  const unknownAction = `/actions/provcert-unknown-${seed}`;
  if (declared.includes('PAYMENT_OPTIONS')) {
    list.push({
      what: `unknown action GET ${unknownAction}/payment-options`,
      request: { method: 'GET', path: `${unknownAction}/payment-options` },
      expect: { status: 404, code: 'NOT_FOUND' },
      requirement: 'ERROR-NOT-FOUND',
    });
  }
  const safe = await quoteProbeBody(ctx);
  if (declared.includes('ACTION_CANCEL') && safe) {
    list.push({
      what: `unknown action POST ${unknownAction}/cancel`,
      request: { method: 'POST', path: `${unknownAction}/cancel`, json: { reason: 'CUSTOMER_CANCELLED' } },
      expect: { status: 404, code: 'NOT_FOUND' },
      requirement: 'ERROR-NOT-FOUND',
    });
  }
  if (declared.includes('SEARCH')) {
    list.push({
      what: 'GET /search without its required q parameter',
      request: { method: 'GET', path: '/search' },
      warnOnSuccess: 'a missing required parameter is usually answered 400 INVALID_ARGUMENT',
    });
  }
  // Query values and path ids a read route cannot take (probe table): read leniently or refused with an
  // ErrorResponse; the required search text is one nothing need match.
  for (const row of queryInputs(ctx.contract.operations(), declared, seed, () => 'provcert')) {
    list.push({ what: row.what, request: { method: 'GET', path: row.path } });
  }
  // Malformed quote input (probe table): POST /quote only where the environment is declared safe (quoteProbeBody).
  const valid = safe;
  for (const row of valid ? malformedQuotes(valid) : []) {
    list.push({
      what: `POST /quote with ${row.what}`,
      request:
        'raw' in row
          ? { method: 'POST', path: '/quote', rawBody: row.raw }
          : { method: 'POST', path: '/quote', json: row.body },
      clientError: true,
    });
  }
  // Another method on a listed path (probe table): POST rows only where POST requests may be sent at all, and only to a
  // provider the service sends POSTs to (one declaring a capability with a POST route): a read-only one gets none.
  const operations = ctx.contract.operations();
  const posting = postingCapabilities(operations);
  const mayPost = (await declaredSafe(ctx)) && declared.some((c) => posting.has(c));
  for (const row of otherMethods(operations, seed, mayPost)) {
    list.push({
      what: row.what,
      request: row.method === 'POST' ? { method: 'POST', path: row.path, json: {} } : { method: 'GET', path: row.path },
      otherMethod: true,
    });
  }
  return list;
}

/** Whether the manifest declares a safe test environment (DECISIONS.md, Safety: otherwise no POST request is sent). */
async function declaredSafe(ctx: CheckContext): Promise<boolean> {
  try {
    return (await ctx.resources.providerInfo()).manifest?.certification?.safeTestEnvironment === true;
  } catch (error) {
    if (error instanceof PrerequisiteError) return false;
    throw error;
  }
}

/**
 * Another method on a listed path: 404 NOT_FOUND ("endpoint or id does not exist"). 405, HTTP's own answer for a
 * known path, and any other 4xx ErrorResponse are a warning; a 2xx served an endpoint the contract does not have, and
 * a 5xx crashed on it.
 */
function judgeOtherMethod(f: Findings, probe: Probe, outcome: HttpOutcome): boolean {
  if (outcome.kind === 'response' && outcome.status < 300) {
    keepEvidence(f, outcome);
    f.problem(
      `${probe.what} was served (${describeAnswer(outcome)}); an endpoint the route table does not list does not exist: expected 404 NOT_FOUND`,
      'ERROR-NOT-FOUND',
    );
    return false;
  }
  // A 4xx whose body is no ErrorResponse breaks the error body's shape; a 5xx (or no answer) the 404 rule.
  const clientError = outcome.kind === 'response' && outcome.status >= 400 && outcome.status < 500;
  const requirement = clientError ? 'ERROR-BODY-SHAPE' : 'ERROR-NOT-FOUND';
  if (!expectError(f, outcome, { what: probe.what, statuses: CLIENT_ERROR_STATUSES, requirement })) return false;
  if (outcome.kind === 'response' && outcome.status !== 404) {
    keepEvidence(f, outcome);
    f.warn(
      `${probe.what} was answered ${describeAnswer(outcome)}; the contract answers an endpoint that does not exist with 404 NOT_FOUND`,
      'ERROR-NOT-FOUND',
    );
    return false;
  }
  return true;
}

/** Any non-2xx answer must be a JSON ErrorResponse whose code the contract documents. */
function judgeErrorAnswer(f: Findings, probe: Probe, outcome: HttpOutcome, documented: ReadonlySet<string>): void {
  if (probe.otherMethod) {
    if (!judgeOtherMethod(f, probe, outcome)) return;
  } else if (probe.expect) {
    const statuses = [probe.expect.status];
    if (
      !expectError(f, outcome, {
        what: probe.what,
        statuses,
        ...(probe.requirement ? { requirement: probe.requirement } : {}),
      })
    )
      return;
  } else if (probe.clientError) {
    const statuses = CLIENT_ERROR_STATUSES;
    if (!expectError(f, outcome, { what: probe.what, statuses, requirement: 'ERROR-CODES-DOCUMENTED' })) return;
  } else {
    if (outcome.kind === 'response' && outcome.status < 300) {
      // "| 400 | INVALID_ARGUMENT | invalid parameter or validation failure |" (a row of ERROR-CODES-DOCUMENTED).
      if (probe.warnOnSuccess)
        f.warn(
          `${probe.what} was answered ${describeAnswer(outcome)}; ${probe.warnOnSuccess}`,
          'ERROR-CODES-DOCUMENTED',
        );
      return;
    }
    if (!expectError(f, outcome, { what: probe.what, statuses: ERROR_STATUSES })) return;
  }
  const code = errorCode(outcome);
  if (code === undefined) return;
  if (documented.size > 0 && !documented.has(code)) {
    keepEvidence(f, outcome);
    f.problem(
      `${probe.what} was answered with code ${code}, which is not a documented error code (${[...documented].join(', ')})`,
      'ERROR-CODES-DOCUMENTED',
    );
  } else if (probe.otherMethod && code !== 'NOT_FOUND') {
    keepEvidence(f, outcome);
    f.problem(`${probe.what} was answered 404 with code ${code}; expected NOT_FOUND`, 'ERROR-NOT-FOUND');
  } else if (probe.expect && code !== probe.expect.code) {
    keepEvidence(f, outcome);
    f.problem(
      `${probe.what} was answered with code ${code}; expected ${probe.expect.code}`,
      probe.expect.code === 'NOT_FOUND' ? 'ERROR-NOT-FOUND' : 'ERROR-CODES-DOCUMENTED',
    );
  }
}

export const check: CheckDefinition = {
  id: 'errors',
  group: 'read',
  title: 'Errors are JSON ErrorResponse with documented codes',
  rule: 'Contract, Errors: "Error body: { code, message }" with the codes of the table; 404 NOT_FOUND "endpoint or id does not exist"; Endpoints: error codes 400, 401, 404, 422, 500 with body ErrorResponse',
  requirements: ['ERROR-BODY-SHAPE', 'ERROR-CODES-DOCUMENTED', 'ERROR-NOT-FOUND'],
  appliesTo: { description: 'every provider' },
  // Last, so its probes do not interleave with the other checks' scenarios.
  after: CHECK_IDS.filter((id) => id !== 'errors'),
  async run(ctx) {
    const f = new Findings();
    const documented = new Set(ctx.contract.enumValues('ErrorCode'));
    const list = await probes(ctx);
    const outcomes = await Promise.all(list.map((p) => ctx.client.send(p.request)));
    list.forEach((probe, i) => {
      const outcome = outcomes[i];
      if (outcome) judgeErrorAnswer(f, probe, outcome, documented);
    });
    return f.outcome(
      `${list.length} error probe(s) answered JSON ErrorResponse with documented codes; an unknown route, and a listed path with another method, answers 404 NOT_FOUND`,
    );
  },
};
