import type { CheckId } from '../model/check-ids.js';
import type { RequirementId } from '../model/findings.js';
import type { Requirement, Verification } from './requirements.js';

/**
 * Proven coverage: requirement → the checks that verify it → the reference-provider faults that break exactly
 * that requirement and must make one of those checks fail (the table-driven end-to-end fault test runs every
 * fault and asserts the failure names the requirement). Declared coverage without a fault is "unproven".
 */

export interface CheckDeclaration {
  id: CheckId;
  requirements: readonly RequirementId[];
}

export interface FaultDeclaration {
  name: string;
  check: CheckId;
  requirement: RequirementId;
}

export interface CoverageRow {
  id: RequirementId;
  section: string;
  verification: Verification;
  checks: string[];
  /** Faults that prove one of `checks` catches a violation of this requirement. */
  faults: string[];
  reason?: string;
  /** A core-side rule that `provcert serve` implements, and the test that proves it (`file › title`). */
  implementedBy?: 'serve';
  provenBy?: string;
  /** Why this row breaks the coverage rules (empty when it holds). */
  problems: string[];
}

/** One requirement × one check that declares it, and the faults that make that check fail on it. */
export interface CoveragePair {
  requirement: RequirementId;
  check: CheckId;
  faults: string[];
}

export interface Coverage {
  rows: CoverageRow[];
  /** Every (checked requirement, declaring check) pair; a pair without a fault is unproven. */
  pairs: CoveragePair[];
  totals: Record<Verification, number> & { proven: number; pairs: number; provenPairs: number };
  /** Problems not tied to one catalog entry (a check or a fault citing an unknown id). */
  problems: string[];
}

export function computeCoverage(
  catalog: readonly Requirement[],
  checks: readonly CheckDeclaration[],
  faults: readonly FaultDeclaration[],
): Coverage {
  const known = new Set(catalog.map((r) => r.id));
  const problems: string[] = [];
  for (const c of checks) {
    for (const id of c.requirements)
      if (!known.has(id)) problems.push(`check ${c.id} cites ${id}, which is not in spec/requirements.yaml`);
  }
  for (const f of faults) {
    if (!known.has(f.requirement))
      problems.push(`fault ${f.name} names ${f.requirement}, which is not in spec/requirements.yaml`);
  }

  const totals = { checked: 0, 'core-side': 0, 'not-observable': 0, proven: 0, pairs: 0, provenPairs: 0 };
  const pairs: CoveragePair[] = [];
  const rows = catalog.map((entry): CoverageRow => {
    totals[entry.verification]++;
    const listed = entry.verification === 'checked' ? [...entry.checks] : [];
    const declaring = checks.filter((c) => c.requirements.includes(entry.id)).map((c) => c.id as string);
    const proving = faults.filter((f) => f.requirement === entry.id && listed.includes(f.check)).map((f) => f.name);
    const rowProblems: string[] = [];
    if (entry.verification === 'checked') {
      if (listed.length === 0) rowProblems.push('checked, but names no check');
      const undeclared = listed.filter((id) => !declaring.includes(id));
      if (undeclared.length > 0)
        rowProblems.push(`the catalog lists ${undeclared.join(', ')}, which do not declare ${entry.id}`);
      const unlisted = declaring.filter((id) => !listed.includes(id));
      if (unlisted.length > 0) rowProblems.push(`${unlisted.join(', ')} declare it but the catalog does not list them`);
      if (proving.length === 0) rowProblems.push('no fault proves that a listed check catches a violation');
      else totals.proven++;
      for (const check of declaring) {
        const byCheck = faults.filter((f) => f.requirement === entry.id && f.check === check).map((f) => f.name);
        pairs.push({ requirement: entry.id, check: check as CheckId, faults: byCheck });
        totals.pairs++;
        if (byCheck.length > 0) totals.provenPairs++;
        else rowProblems.push(`no fault proves that ${check} fails on it`);
      }
    } else if (declaring.length > 0) {
      rowProblems.push(`${entry.verification}, but ${declaring.join(', ')} declare it`);
    }
    const served = entry.verification === 'core-side' ? entry['implemented-by'] : undefined;
    const provenBy = entry.verification === 'core-side' ? entry['proven-by'] : undefined;
    if (served && !provenBy) rowProblems.push('implemented by serve, but names no proving test (proven-by)');
    return {
      id: entry.id,
      section: entry.section,
      verification: entry.verification,
      checks: listed,
      faults: proving,
      ...(entry.verification !== 'checked' ? { reason: entry.reason } : {}),
      ...(served ? { implementedBy: served } : {}),
      ...(provenBy ? { provenBy } : {}),
      problems: rowProblems,
    };
  });
  return { rows, pairs, totals, problems };
}

/**
 * "checked 96, core-side 9, not observable 6; 96/96 checked requirements proven by a fault; 130/130
 * requirement × check pairs proven"
 */
export function coverageTotalsText(c: Coverage): string {
  const t = c.totals;
  return `checked ${t.checked}, core-side ${t['core-side']}, not observable ${t['not-observable']}; ${t.proven}/${t.checked} checked requirements proven by a fault; ${t.provenPairs}/${t.pairs} requirement × check pairs proven`;
}

export const coverageHolds = (c: Coverage): boolean =>
  c.problems.length === 0 && c.rows.every((r) => r.problems.length === 0);

/** "core-side: 23 implemented by serve, 16 service-only" */
export function coreSideText(c: Coverage): string {
  const core = c.rows.filter((r) => r.verification === 'core-side');
  const served = core.filter((r) => r.implementedBy === 'serve').length;
  return `core-side: ${served} implemented by serve, ${core.length - served} service-only`;
}
