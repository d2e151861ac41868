import type { CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { keepEvidence } from './support/evidence.js';
import { expectJson } from './support/expect.js';
import { actionPath, markReproduce, problemAt } from './support/tx.js';

const describeShape = (value: unknown): string => {
  if (value === null) return 'null';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const keys = Object.keys(value);
  return `an object${keys.length > 0 ? ` with keys ${keys.slice(0, 5).join(', ')}` : ''}`;
};

export const check: CheckDefinition = {
  id: 'payment-options',
  group: 'transactional',
  title: 'Payment options are a top-level array of PaymentOption',
  rule: 'Contract, PaymentOption: "GET /actions/{id}/payment-options; response is a top-level array"; fields id, name, type required',
  requirements: ['PAYMENT-OPTIONS-ARRAY', 'PAYMENT-OPTION-REQUIRED-FIELDS'],
  needs: ['payment-pending'],
  appliesTo: {
    operations: ['GET /actions/{id}/payment-options'],
    description: 'providers that declare PAYMENT_OPTIONS',
  },
  async run(ctx) {
    const f = new Findings();
    const { action } = await ctx.resources.pendingAction();
    const what = `GET /actions/${action.id}/payment-options`;
    const outcome = await ctx.client.send({ method: 'GET', path: actionPath(action.id, '/payment-options') });
    if (!expectJson(f, outcome, what)) {
      markReproduce(f, ctx, outcome);
      return f.outcome('');
    }
    const response = outcome;
    if (!Array.isArray(response.json)) {
      problemAt(
        f,
        ctx,
        response,
        `${what} answered ${describeShape(response.json)}; expected a top-level array of PaymentOption`,
      );
      return f.outcome('');
    }
    for (const p of ctx.contract.validateResponse('GET /actions/{id}/payment-options', 200, response.json)?.problems ??
      []) {
      problemAt(
        f,
        ctx,
        response,
        `${what} does not match an array of PaymentOption: ${p.text}`,
        'PAYMENT-OPTION-REQUIRED-FIELDS',
      );
    }
    if (response.json.length === 0) f.warn(`${what} answered an empty array: the customer would see no payment option`);
    keepEvidence(f, response);
    return f.outcome(`${what} answered ${response.json.length} valid payment option(s)`);
  },
};
