import type { CheckId, CheckResult, RunReport } from '../checks/types.js';
import type { RawRunOptions } from '../cli/run-options.js';

export interface ReplayPlan {
  flags: RawRunOptions;
  checks: CheckId[];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
const list = (v: unknown): string | undefined => (Array.isArray(v) ? v.filter((x) => typeof x === 'string').join(',') : undefined);

/**
 * The run flags recorded in a report's `inputs`, restricted to the failed checks (or one), so the rerun
 * is the same run: same provider, auth, profile, capabilities, seed and limits.
 */
export function planReplay(report: RunReport, only?: CheckId): ReplayPlan | { error: string } {
  const failed = report.checks.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => c.id);
  const checks = only ? [only] : failed;
  if (only && !report.checks.some((c) => c.id === only)) return { error: `the report has no check "${only}"` };
  if (checks.length === 0) return { error: 'the report has no failed check to replay (verdict ' + report.verdict + '); pass --check ID to rerun one anyway' };
  const i = report.inputs;
  const source = i['credentialSource'] as { kind?: string; name?: string; path?: string } | undefined;
  const flags: RawRunOptions = {
    baseUrl: str(i['baseUrl']) ?? report.provider.baseUrl,
    auth: str(i['authMethod']) ?? report.provider.authMethod,
    ...(source?.kind === 'file' && source.path ? { credentialFile: source.path } : source?.name ? { credentialEnv: source.name } : {}),
    ...(str(i['profile']) ? { profile: str(i['profile']) } : {}),
    ...(list(i['capabilities']) ? { capabilities: list(i['capabilities']) } : {}),
    ...(str(i['fulfillment']) ? { fulfillment: str(i['fulfillment']) } : {}),
    local: i['local'] === true,
    // The provider posts its events to the recorded receiver address, so the rerun listens there again.
    ...(str(i['webhookHost']) ? { webhookHost: str(i['webhookHost']) } : {}),
    ...(str(i['webhookPort']) ? { webhookPort: str(i['webhookPort']) } : {}),
    ...(str(i['timeoutMs']) ? { timeout: str(i['timeoutMs']) } : {}),
    ...(str(i['webhookTimeoutMs']) ? { webhookTimeout: str(i['webhookTimeoutMs']) } : {}),
    ...(str(i['maxExpiryWaitS']) ? { maxExpiryWait: str(i['maxExpiryWaitS']) } : {}),
    ...(str(i['seed']) ? { seed: str(i['seed']) } : {}),
    only: checks.join(','),
  };
  return { flags, checks };
}

export type ReplayVerdict = 'reproduced' | 'not-reproduced' | 'changed';

/** Compare one check's original result with its rerun. */
export function compareResults(before: CheckResult, after: CheckResult | undefined): { verdict: ReplayVerdict; line: string } {
  if (!after) return { verdict: 'changed', line: `${before.id}: not run this time` };
  if (after.status === before.status && after.message === before.message) return { verdict: 'reproduced', line: `${before.id}: reproduced — ${after.message}` };
  if (after.status === before.status) return { verdict: 'reproduced', line: `${before.id}: still ${after.status} — now: ${after.message} (was: ${before.message})` };
  if (after.status === 'pass') return { verdict: 'not-reproduced', line: `${before.id}: no longer fails (was ${before.status}: ${before.message})` };
  return { verdict: 'changed', line: `${before.id}: now ${after.status} — ${after.message} (was ${before.status}: ${before.message})` };
}
