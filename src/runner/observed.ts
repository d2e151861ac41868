import { checkById } from '../checks/framework/registry.js';
import { CHECK_IDS, type CheckId } from '../model/check-ids.js';
import type { CheckResult } from '../model/report.js';
import type { LeftOutCheck } from '../model/verdict.js';
import type { Observation } from './schedule.js';

/** The results with the observed root causes added, and what the selection still left out. */
export interface ObservedCauses {
  results: CheckResult[];
  /** The added results, in report order (for the live output). */
  added: CheckResult[];
  leftOut: LeftOutCheck[];
}

const list = (ids: readonly string[]): string => ids.join(', ');

/**
 * A check the selection left out whose subject a check that ran found broken (`--skip catalog` on a provider whose
 * catalog the quote checks could not use) is a root cause all the same: the run fails on what was seen, citing its
 * rule, and names the checks it kept from running. Nothing a selection leaves out can hide a defect provcert saw.
 */
export function observedCauses(
  results: readonly CheckResult[],
  observations: readonly Observation[],
  leftOut: readonly LeftOutCheck[],
): ObservedCauses {
  const ran = new Set(results.map((r) => r.id));
  const byOwner = new Map<CheckId, Observation[]>();
  for (const seen of observations) {
    if (ran.has(seen.owner)) continue; // it ran and reports its subject itself
    byOwner.set(seen.owner, [...(byOwner.get(seen.owner) ?? []), seen]);
  }
  const added = [...byOwner].map(([owner, seen]) =>
    observedResult(owner, seen, blockedBy(owner, results), leftOut.find((l) => l.id === owner)?.reason),
  );
  if (added.length === 0) return { results: [...results], added, leftOut: [...leftOut] };
  const order = (r: CheckResult): number => CHECK_IDS.indexOf(r.id);
  return {
    results: [...results, ...added].sort((a, b) => order(a) - order(b)),
    added,
    leftOut: leftOut.filter((l) => !byOwner.has(l.id)),
  };
}

/** The checks skipped because of the owner, directly or through a check skipped because of it. */
const blockedBy = (owner: CheckId, results: readonly CheckResult[]): CheckId[] =>
  results.filter((r) => r.status === 'skip' && r.skippedBecauseOf === owner).map((r) => r.id);

function observedResult(
  owner: CheckId,
  seen: readonly Observation[],
  blocked: readonly CheckId[],
  why: string | undefined,
): CheckResult {
  const def = checkById(owner);
  const first = seen[0] as Observation;
  const by = [...new Set(seen.map((s) => s.by))];
  const requirement = first.requirement ?? def?.requirements[0] ?? 'ROUTE-PROVIDER-INFO';
  const exchange = seen.map((s) => s.evidence?.exchange).find((e) => e !== undefined);
  return {
    id: owner,
    title: def?.title ?? owner,
    rule: def?.rule ?? '',
    requirements: def ? [...def.requirements] : [requirement],
    status: 'fail',
    message: first.message,
    details: [
      `seen while running ${list(by)}; ${owner} itself was ${why ?? 'left out by the selection'}, so only this was judged of it`,
      `not run because of it: ${blocked.length > 0 ? list(blocked) : list(by)}`,
    ],
    evidence: exchange ? [exchange] : [],
    findings: [{ severity: 'fail', requirement, message: first.message }],
    durationMs: 0,
    observedWhile: by,
  };
}
