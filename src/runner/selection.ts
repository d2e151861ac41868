import { CHECKS, checkById } from '../checks/framework/registry.js';
import type { CheckDefinition } from '../checks/framework/types.js';
import type { CheckId } from '../model/check-ids.js';
import { SettingError } from '../model/errors.js';
import type { PulledInCheck } from '../model/report.js';

/** What a check cannot be judged without: the checks it takes its test data from, and those it depends on. */
const prerequisites = (def: CheckDefinition): CheckId[] => [...(def.needs ?? []), ...(def.dependsOn ?? [])];

/** The checks these need, directly or through one another (the ids themselves not included unless needed). */
export function neededBy(ids: readonly CheckId[]): Map<CheckId, CheckId[]> {
  const needed = new Map<CheckId, CheckId[]>();
  const visit = (id: CheckId, root: CheckId): void => {
    for (const dep of prerequisites(checkById(id) as CheckDefinition)) {
      const roots = needed.get(dep) ?? [];
      if (roots.includes(root)) continue;
      needed.set(dep, [...roots, root]);
      visit(dep, root);
    }
  };
  for (const id of ids) visit(id, id);
  return needed;
}

/** The checks that need these (their test data comes from them), directly or through one another, in report order. */
export function dependantsOf(ids: readonly CheckId[]): CheckId[] {
  const found = new Set<CheckId>(ids);
  let grew = true;
  while (grew) {
    grew = false;
    for (const def of CHECKS)
      if (!found.has(def.id) && prerequisites(def).some((id) => found.has(id))) {
        found.add(def.id);
        grew = true;
      }
  }
  return CHECKS.map((d) => d.id).filter((id) => found.has(id) && !ids.includes(id));
}

/** The checks a run selects, and those `--only` did not name but runs because a named check needs them. */
export interface CheckSelection {
  selected: CheckDefinition[];
  pulledIn: PulledInCheck[];
}

/**
 * `only` and `skip` as a run applies them. `--only` pulls in what its checks need (`needs`, `dependsOn`), so a
 * narrowed run judges its checks on data it checked; a needed check the skip list leaves out is refused, naming the
 * `--only` that works.
 */
export function selectChecks(selection: { only?: readonly CheckId[]; skip?: readonly CheckId[] }): CheckSelection {
  const { only, skip = [] } = selection;
  if (!only) return { selected: CHECKS.filter((d) => !skip.includes(d.id)), pulledIn: [] };
  const named = only.filter((id) => !skip.includes(id));
  const needed = [...neededBy(named)].filter(([id]) => !named.includes(id));
  const refused = needed.find(([id]) => skip.includes(id));
  if (refused) {
    const [id, by] = refused;
    const works = CHECKS.map((d) => d.id).filter((c) => named.includes(c) || needed.some(([n]) => n === c));
    throw new SettingError(
      'only',
      (flag) =>
        `${needPhrase(by, id)}, which the skip list leaves out: use ${flag} ${works.join(',')} and do not skip ${id}`,
    );
  }
  const ids = new Set<CheckId>([...named, ...needed.map(([id]) => id)]);
  const pulledIn = CHECKS.filter((d) => needed.some(([id]) => id === d.id)).map((d) => ({
    id: d.id,
    neededBy: CHECKS.map((c) => c.id).filter((c) => (needed.find(([id]) => id === d.id)?.[1] ?? []).includes(c)),
  }));
  return { selected: CHECKS.filter((d) => ids.has(d.id)), pulledIn };
}

/** "quote-math needs catalog for its test data", "quote-math, quote-expiry need catalog for their test data". */
const needPhrase = (by: readonly CheckId[], id: CheckId): string =>
  by.length === 1 ? `${by[0]} needs ${id} for its test data` : `${by.join(', ')} need ${id} for their test data`;

/** "--only also runs catalog: quote-math needs catalog for its test data": one line per check pulled in. */
export const pulledInLines = (pulledIn: readonly PulledInCheck[], flag = 'only'): string[] =>
  pulledIn.map((p) => `${flag} also runs ${p.id}: ${needPhrase(p.neededBy, p.id)}`);
