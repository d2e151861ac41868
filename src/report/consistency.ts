import { CHECK_IDS, CHECK_STATUSES, type CheckId, type CheckStatus } from '../model/check-ids.js';
import type { FleetReport } from '../model/fleet-report.js';
import { summarizeFleet } from '../model/fleet-verdict.js';
import type { CheckResult, RunReport } from '../model/report.js';
import { countChecks, deriveRunVerdict } from '../model/verdict.js';
import { statusContradiction } from './status-consistency.js';
import { outcomeNamesCheck } from './waivers.js';

/** The requirements catalog as a stored report is checked against (src/contract/requirements.ts provides it). */
export interface RequirementTexts {
  requirementById(id: string): { section: string; quote: string } | undefined;
}

const isFailure = (status: CheckStatus): boolean => status === 'fail' || status === 'error';
const shown = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** The checks a report's recorded only/skip selection left out (`inputs` of reports written before `leftOut` existed). */
export function selectionExcludes(inputs: Record<string, unknown>): Set<CheckId> {
  const ids = (value: unknown): string[] | undefined =>
    Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
  const only = ids(inputs['only']);
  const skip = ids(inputs['skip']) ?? [];
  return new Set(CHECK_IDS.filter((id) => (only !== undefined && !only.includes(id)) || skip.includes(id)));
}

function duplicateCheck(checks: readonly CheckResult[]): string | undefined {
  const seen = new Set<string>();
  for (const check of checks) {
    if (seen.has(check.id)) return `check ${check.id} appears twice`;
    seen.add(check.id);
  }
  return undefined;
}

/** A waiver on a check must be one the report's expected failures applied, to a check that failed. */
function waiverContradiction(report: RunReport): string | undefined {
  const outcomes = report.waivers ?? [];
  for (const check of report.checks) {
    if (!check.waiver) continue;
    if (!isFailure(check.status))
      return `check ${check.id} carries a waiver, but it did not fail (status ${check.status})`;
    const waiver = check.waiver;
    const applied = outcomes.some(
      (o) =>
        outcomeNamesCheck(o, check) && o.state === 'applied' && o.reason === waiver.reason && o.until === waiver.until,
    );
    if (!applied) return `check ${check.id} carries a waiver that none of the report's applied expected failures gives`;
  }
  return undefined;
}

/** Stated counts against the checks: with `waived`, a waived failure counts there; without, under its status. */
function summaryContradiction(report: RunReport): string | undefined {
  const stated = report.summary;
  const counted: Record<string, number> =
    stated.waived !== undefined
      ? { ...countChecks(report.checks) }
      : Object.fromEntries(CHECK_STATUSES.map((s) => [s, report.checks.filter((c) => c.status === s).length]));
  for (const [key, n] of Object.entries(counted)) {
    // `untested` came later: absent in older reports, where it means none.
    const statedCount = (stated as Record<string, number | undefined>)[key];
    const says = statedCount === undefined && key === 'untested' ? 0 : statedCount;
    if (says !== n) return `the summary counts ${shown(says)} ${key}, but the checks give ${n}`;
  }
  return undefined;
}

/** Every check of the contract is in a run's report, unless the run's selection left it out or the run was stopped. */
function selectionContradiction(report: RunReport): string | undefined {
  const present = new Set(report.checks.map((c) => c.id));
  const excluded = selectionExcludes(report.inputs);
  for (const left of report.leftOut ?? []) {
    if (present.has(left.id)) return `check ${left.id} is listed as left out, but the report has its result`;
    if (!excluded.has(left.id))
      return `check ${left.id} is listed as left out, but the run's only/skip selection kept it`;
  }
  if (report.interruptedBy !== undefined) return undefined;
  const leftOut = new Set((report.leftOut ?? []).map((l) => l.id));
  const missing = CHECK_IDS.find((id) => !present.has(id) && !leftOut.has(id) && !excluded.has(id));
  if (missing)
    return `check ${missing} is missing: a run that was not stopped reports every check it did not leave out`;
  // With `leftOut` recorded, every check the selection excluded is named there: a PARTIAL run says what it left out.
  if (report.leftOut !== undefined) {
    const unnamed = [...excluded].find((id) => !present.has(id) && !leftOut.has(id));
    if (unnamed)
      return `check ${unnamed} was left out by the run's only/skip selection, but the report does not list it`;
  }
  return undefined;
}

/**
 * `notRun` (what an interrupt kept from running) agrees with the rest: only an interrupted run has it; each check it
 * names once, skipped or absent but kept by the selection; and every selected check the report has no result for is
 * in it. Reports written before `notRun` was recorded have none and are read as before.
 */
function notRunContradiction(report: RunReport): string | undefined {
  const notRun = report.notRun;
  if (notRun === undefined) return undefined;
  if (report.interruptedBy === undefined && notRun.length > 0)
    return `check ${notRun[0]} is listed as not run, but the run was not interrupted`;
  if (report.interruptedBy === undefined) return 'the report lists the checks not run, but the run was not interrupted';
  const results = new Map(report.checks.map((c) => [c.id, c.status]));
  const excluded = selectionExcludes(report.inputs);
  const leftOut = new Set((report.leftOut ?? []).map((l) => l.id));
  const listed = new Set<CheckId>();
  for (const id of notRun) {
    if (listed.has(id)) return `check ${id} is listed twice as not run`;
    listed.add(id);
    const status = results.get(id);
    if (status !== undefined && status !== 'skip')
      return `check ${id} is listed as not run, but its result is ${shown(status)}`;
    if (status === undefined && (excluded.has(id) || leftOut.has(id)))
      return `check ${id} is listed as not run, but the run's only/skip selection left it out`;
  }
  const unlisted = CHECK_IDS.find((id) => !results.has(id) && !excluded.has(id) && !leftOut.has(id) && !listed.has(id));
  if (unlisted) return `check ${unlisted} is missing, but the report does not list it as not run`;
  return undefined;
}

/** A check is `untested` exactly when it names what it did not test (a failure may keep them beside its problems). */
function untestedContradiction(report: RunReport): string | undefined {
  for (const check of report.checks) {
    const named = (check.untested ?? []).length > 0;
    if (check.status === 'untested' && !named)
      return `check ${check.id} is untested, but does not name the rule it did not test`;
    if (named && check.status !== 'untested' && !isFailure(check.status))
      return `check ${check.id} names a rule it did not test, but its status is ${shown(check.status)}`;
  }
  return undefined;
}

function verdictContradiction(report: RunReport): string | undefined {
  const derived = deriveRunVerdict(report);
  if (report.verdict === derived) return undefined;
  const firstFailure = report.checks.find((c) => isFailure(c.status) && !c.waiver);
  const why = firstFailure ? ` (${firstFailure.id}: ${firstFailure.status})` : '';
  return `the verdict says ${shown(report.verdict)}, but its checks, waivers and interruption give ${derived}${why}`;
}

/** Cited ids are the catalog's, and the report's requirement texts are the catalog's own words. */

const LATER_COUNTS = new Set(['partial', 'interrupted', 'incomplete']);

function requirementContradiction(report: RunReport, catalog: RequirementTexts): string | undefined {
  for (const check of report.checks) {
    const cited = [...check.requirements, ...check.findings.map((f) => f.requirement)];
    const unknown = cited.find((id) => catalog.requirementById(id) === undefined);
    if (unknown !== undefined)
      return `check ${check.id} cites requirement ${shown(unknown)}, which the contract's catalog does not have`;
  }
  for (const [id, text] of Object.entries(report.requirements)) {
    const known = catalog.requirementById(id);
    if (!known) return `the report quotes requirement ${shown(id)}, which the contract's catalog does not have`;
    if (known.section !== text.section || known.quote !== text.quote)
      return `the report's text of requirement ${id} is not the catalog's`;
  }
  return undefined;
}

/**
 * The first thing a stored run report states that its own parts contradict (issue 25), or undefined. Re-derived:
 * the summary from the checks, the verdict from the checks, waivers, selection and interruption (deriveRunVerdict),
 * the checks present from the selection and the checks not run, the waivers from the expected failures, the
 * requirements from the catalog.
 */
export function runReportContradiction(report: RunReport, catalog: RequirementTexts): string | undefined {
  return (
    duplicateCheck(report.checks) ??
    waiverContradiction(report) ??
    summaryContradiction(report) ??
    selectionContradiction(report) ??
    notRunContradiction(report) ??
    untestedContradiction(report) ??
    verdictContradiction(report) ??
    statusContradiction(report) ??
    requirementContradiction(report, catalog)
  );
}

/** The same for a fleet.json: each provider's run, its verdict beside its run's, the fleet's counts and verdict. */
export function fleetReportContradiction(report: FleetReport, catalog: RequirementTexts): string | undefined {
  const slugs = new Set<string>();
  for (const provider of report.providers) {
    const name = `provider ${shown(provider.slug)}`;
    if (slugs.has(provider.slug)) return `${name} appears twice`;
    slugs.add(provider.slug);
    if (provider.report) {
      const inRun = runReportContradiction(provider.report, catalog);
      if (inRun) return `${name}: ${inRun}`;
      const expected = provider.error !== undefined ? 'FAIL' : provider.report.verdict;
      if (provider.verdict !== expected)
        return `${name} is listed as ${provider.verdict}, but its run's verdict is ${provider.report.verdict}${provider.error !== undefined ? ' and it has an error' : ''}`;
    } else if (provider.verdict !== 'FAIL' && provider.verdict !== 'NOT_RUN') {
      return `${name} is listed as ${provider.verdict} without a run report`;
    }
  }
  const derived = summarizeFleet(report.providers, report.waivers, report.interruptedBy);
  for (const [key, n] of Object.entries(derived.summary)) {
    // Counts added later (partial, interrupted, incomplete) are absent from older reports: absent means none.
    const stated = (report.summary as Record<string, number | undefined>)[key];
    const says = stated === undefined && LATER_COUNTS.has(key) ? 0 : stated;
    if (says !== n) return `the fleet summary counts ${shown(says)} ${key}, but its providers give ${n}`;
  }
  if (report.verdict !== derived.verdict)
    return `the fleet verdict says ${shown(report.verdict)}, but its providers, waivers and interruption give ${derived.verdict}`;
  return undefined;
}
