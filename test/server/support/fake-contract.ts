import type { Contract } from '../../../src/spec/contract.js';
import type { SchemaProblem } from '../../../src/spec/types.js';

const STATUSES = ['CREATED', 'AWAITING_PAYMENT', 'CONFIRMED', 'PROCESSING', 'COMPLETED', 'CANCELLED', 'FAILED'];

/**
 * A stand-in for the compiled contract that knows NormalizedWebhookEvent only: the server tests exercise
 * the receiver, not the spec (the spec's own tests cover the validators).
 */
export function webhookOnlyContract(): Contract {
  const validateEvent = (value: unknown): SchemaProblem[] => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return [{ pointer: '', rule: 'type', text: 'must be object' }];
    const o = value as Record<string, unknown>;
    const problems: SchemaProblem[] = [];
    for (const field of ['eventId', 'eventType', 'providerSlug', 'timestamp']) {
      if (typeof o[field] !== 'string') problems.push({ pointer: `/${field}`, rule: 'required', text: `/${field} is required (string)` });
    }
    if (o['newStatus'] !== undefined && !STATUSES.includes(String(o['newStatus']))) {
      problems.push({ pointer: '/newStatus', rule: 'enum', text: '/newStatus must be an action status' });
    }
    return problems;
  };
  return {
    version: '1.0.0',
    specPath: '(test)',
    schemaNames: () => ['NormalizedWebhookEvent'],
    hasSchema: (name) => name === 'NormalizedWebhookEvent',
    validate: (name, value) => {
      if (name !== 'NormalizedWebhookEvent') throw new Error(`unknown schema ${name}`);
      const problems = validateEvent(value);
      return { valid: problems.length === 0, problems };
    },
    validateResponse: () => undefined,
    validateRequest: () => undefined,
    operations: () => [],
    operation: () => undefined,
    enumValues: () => [],
  };
}
