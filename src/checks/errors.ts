import type { HttpOutcome, ProviderRequest } from '../http/types.js';
import { CHECK_IDS } from '../model/check-ids.js';
import type { RequirementId } from '../model/findings.js';
import { PrerequisiteError } from './framework/resources.js';
import type { CheckContext, CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { keepEvidence } from './support/evidence.js';
import { describeAnswer, errorCode, expectError } from './support/expect.js';
import { malformedQuotes } from './support/probe-tables/malformed-quote.js';
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
  return list;
}

/** Any non-2xx answer must be a JSON ErrorResponse whose code the contract documents. */
function judgeErrorAnswer(f: Findings, probe: Probe, outcome: HttpOutcome, documented: ReadonlySet<string>): void {
  if (probe.expect) {
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
      `${list.length} error probe(s) answered JSON ErrorResponse with documented codes; an unknown route answers 404 NOT_FOUND`,
    );
  },
};
