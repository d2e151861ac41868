import { PrerequisiteError, type Resources } from '../checks/framework/resources.js';
import type { CheckDefinition } from '../checks/framework/types.js';
import type { ProviderInfoView } from '../checks/framework/views.js';
import type { Contract } from '../contract/contract.js';
import { authDiagnosisOn } from '../doctor/auth.js';
import type { HttpOutcome, ProviderClient } from '../http/types.js';
import type { CheckId } from '../model/check-ids.js';
import type { CheckOutcome } from '../model/report.js';
import type { RunConfig } from '../model/run-config.js';
import type { SpellSetting } from '../model/setting-speller.js';
import {
  causeCarrier,
  causeSkipReason,
  declaredIn,
  isAddressProblem,
  type ProviderInfoCause,
  providerInfoCause,
} from './applicability.js';

/** Why the run cannot decide what applies, and the one check that says so; every other check is skipped naming it. */
export interface RootCause extends ProviderInfoCause {
  carrier: 'base-url' | 'metadata';
  /** What GET /provider-info answered: the evidence, should the carrier have to report the cause itself. */
  outcome: HttpOutcome;
  /** A refused credential: which scheme or value the provider accepts instead, and the fix (as `provcert doctor` says it). */
  diagnosis?: string;
}

export interface ProviderInfoReading {
  info?: ProviderInfoView;
  /** What a schema-invalid answer still declares (contract capability names). */
  declared?: string[];
  cause?: RootCause;
}

export interface ReadingDeps {
  resources: Resources;
  client: ProviderClient;
  contract: Contract;
  config: RunConfig;
  credential: string;
  selected: readonly CheckId[];
  spell: SpellSetting;
}

const credentialSource = (config: RunConfig): string =>
  config.credentialSource.kind === 'env' ? config.credentialSource.name : `the file ${config.credentialSource.path}`;

/** Doctor's auth diagnosis on the refused answer: it tries the other schemes (and a trimmed value) to say what would work. */
async function refusedDiagnosis(
  outcome: HttpOutcome,
  { client, config, credential, spell }: ReadingDeps,
): Promise<string | undefined> {
  const found = await authDiagnosisOn(
    '/provider-info',
    outcome,
    client,
    config.auth,
    {
      value: credential,
      source: credentialSource(config),
    },
    spell,
  );
  if (found.status !== 'fail') return undefined;
  return `${found.detail}${found.fix ? ` — fix: ${found.fix}` : ''}`;
}

/**
 * GET /provider-info, and when it is not usable, the root cause: refused (401/403), unreachable, not a JSON
 * 200, or schema-invalid with no readable capabilities (unless --profile or --capabilities say what applies).
 */
export async function readProviderInfo(deps: ReadingDeps): Promise<ProviderInfoReading> {
  let outcome: HttpOutcome;
  try {
    return { info: await deps.resources.providerInfo() };
  } catch (error) {
    if (!(error instanceof PrerequisiteError)) throw error;
    // The answer the resource refused; asking again would cost a silent provider a second full timeout.
    outcome = error.evidence ?? (await deps.client.send({ method: 'GET', path: '/provider-info' }));
  }
  const found = providerInfoCause(outcome);
  if (!found) {
    const declared = declaredIn(
      outcome.kind === 'response' ? outcome.json : undefined,
      deps.contract.enumValues('Capability'),
    );
    if (declared) return { declared };
    if (deps.config.profile || deps.config.capabilities) return {};
    const summary =
      'GET /provider-info does not match the schema and its capabilities cannot be read, so which checks apply is not known';
    return { cause: { kind: 'undeclared', summary, carrier: 'metadata', outcome } };
  }
  // No answer at all is the address's problem (base-url probes /health itself); an HTML page or a 404 is when /health agrees.
  const mayBeAddress =
    found.kind !== 'refused' && (outcome.kind === 'failure' || outcome.bodyKind === 'html' || outcome.status === 404);
  const address =
    mayBeAddress &&
    (outcome.kind === 'failure' ||
      isAddressProblem(outcome, await deps.client.send({ method: 'GET', path: '/health' })));
  const diagnosis = found.kind === 'refused' ? await refusedDiagnosis(outcome, deps) : undefined;
  return {
    cause: { ...found, carrier: causeCarrier(address, deps.selected), outcome, ...(diagnosis ? { diagnosis } : {}) },
  };
}

/** The outcome with its first problem restated (the message is the first problem's text). */
function restated(outcome: CheckOutcome, message: string): CheckOutcome {
  const findings = outcome.findings ?? [];
  const first = findings.findIndex((f) => f.severity === 'fail');
  return { ...outcome, message, findings: findings.map((f, i) => (i === first ? { ...f, message } : f)) };
}

/** The carrier check, made to report the root cause: doctor's diagnosis for a refused credential, and never a pass. */
export function carrying(def: CheckDefinition, cause: RootCause): CheckDefinition {
  return {
    ...def,
    async run(ctx) {
      const outcome = await def.run(ctx);
      if (outcome.status === 'fail')
        return cause.diagnosis && def.id === 'metadata' ? restated(outcome, cause.diagnosis) : outcome;
      if (outcome.status !== 'pass') return outcome;
      // provcert saw the cause itself: a run that could not use GET /provider-info must not pass for want of a red line.
      return {
        ...outcome,
        status: 'fail',
        message: cause.summary,
        evidence: [cause.outcome.exchange, ...outcome.evidence],
        findings: [
          { severity: 'fail', requirement: 'ROUTE-PROVIDER-INFO', message: cause.summary },
          ...(outcome.findings ?? []),
        ],
      };
    },
  };
}

/**
 * The checks of a run stopped by a root cause: the carrier (added when the selection left it out) and base-url
 * (which judges the address on its own) run; every other check is skipped naming the cause.
 */
export function stoppedRun(
  selected: readonly CheckDefinition[],
  all: readonly CheckDefinition[],
  cause: RootCause,
): { defs: CheckDefinition[]; skips: Map<CheckId, string> } {
  const ids = new Set([...selected.map((d) => d.id), cause.carrier]);
  const defs = all.filter((d) => ids.has(d.id)).map((d) => (d.id === cause.carrier ? carrying(d, cause) : d));
  const skips = new Map<CheckId, string>();
  for (const def of defs)
    if (def.id !== cause.carrier && def.id !== 'base-url') skips.set(def.id, causeSkipReason(cause, cause.carrier));
  return { defs, skips };
}
