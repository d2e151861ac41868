import { parseIsoTimestamp } from '../contract/timestamp.js';
import type { CheckDefinition } from './framework/types.js';
import { Findings } from './outcome.js';
import { keepEvidence } from './support/evidence.js';
import { expectJson, expectSchema } from './support/expect.js';

/** How far the provider's clock may be from ours before we mention it (a warning: the contract sets no bound). */
const CLOCK_SKEW_WARN_MS = 5 * 60_000;

export const check: CheckDefinition = {
  id: 'health',
  group: 'read',
  title: 'Health check reports its status with a measured latency',
  rule: 'Contract, HealthCheckResult: status (HEALTHY is the healthy value), latencyMs (number), timestamp (ISO 8601) required; "An unhealthy system must not report HEALTHY; latencyMs must reflect real measurement"',
  requirements: [
    'HEALTH-REQUIRED-FIELDS',
    'HEALTH-HEALTHY-VALUE',
    'HEALTH-LATENCY-MEASURED',
    'ROUTE-HEALTH',
    'TIMESTAMPS-ISO8601',
  ],
  appliesTo: { operations: ['GET /health'], description: 'every provider (HEALTH is required in both profiles)' },
  async run(ctx) {
    const f = new Findings();
    const outcome = await ctx.client.send({ method: 'GET', path: '/health' });
    if (!expectJson(f, outcome, 'GET /health', 200, 'ROUTE-HEALTH')) return f.outcome('');
    // A wrong status value or type breaks the status row; a missing field breaks the required fields.
    const statusRule = (p: { pointer: string; rule: string }) =>
      p.pointer === '/status' && p.rule !== 'required' ? 'HEALTH-HEALTHY-VALUE' : undefined;
    if (!expectSchema(f, ctx.contract, outcome, 'GET /health', 'GET /health', 'HEALTH-REQUIRED-FIELDS', statusRule))
      return f.outcome('');
    const health = outcome.json as { status: string; latencyMs: number; timestamp: string };
    // "Values of status other than HEALTHY: not shown": another value is reported, never failed.
    if (health.status !== 'HEALTHY')
      f.warn(
        `GET /health reports status ${JSON.stringify(health.status)}; HEALTHY is the healthy value, so the provider may not be ready for certification`,
        'HEALTH-HEALTHY-VALUE',
      );
    if (!Number.isFinite(health.latencyMs) || health.latencyMs < 0)
      f.problem(
        `GET /health latencyMs is ${health.latencyMs}; a real measurement is a non-negative number of milliseconds`,
        'HEALTH-LATENCY-MEASURED',
      );
    const at = parseIsoTimestamp(health.timestamp)?.epochMs ?? Number.NaN;
    if (Number.isNaN(at))
      f.problem(
        `GET /health timestamp ${JSON.stringify(health.timestamp)} is not a valid ISO 8601 timestamp`,
        'TIMESTAMPS-ISO8601',
      );
    else if (Math.abs(at - ctx.clock.now()) > CLOCK_SKEW_WARN_MS)
      f.warn(
        `GET /health timestamp ${health.timestamp} is more than 5 minutes from provcert's clock; is the provider's clock or time zone wrong?`,
        'TIMESTAMPS-ISO8601',
      );
    if (f.failed) keepEvidence(f, outcome);
    return f.outcome(`HEALTHY, latencyMs ${health.latencyMs}, timestamp ${health.timestamp}`);
  },
};
