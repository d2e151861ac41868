import { isRecord, records, str } from '../../util/json.js';

/**
 * "ids are stable across catalog refreshes" (contract, Catalog rules): the same thing, recognised by what does
 * not change (an offering's offeringCode, a category's slug, a variant's, group's or option's name within its
 * offering), keeps its id between two GET /catalog answers. Things that appear or disappear are not judged.
 */

const text = (o: Record<string, unknown>, k: string): string | undefined => str(o[k]);

/** "what" → id for everything of one catalog answer that has both a stable key and an id. */
function identities(catalog: unknown): Map<string, string> {
  const found = new Map<string, string>();
  const add = (key: string | undefined, id: string | undefined) => {
    if (key !== undefined && id !== undefined && !found.has(key)) found.set(key, id);
  };
  if (!isRecord(catalog)) return found;
  for (const c of records(catalog['categories']))
    add(c['slug'] === undefined ? undefined : `category "${String(c['slug'])}"`, text(c, 'id'));
  for (const o of records(catalog['offerings'])) {
    const code = text(o, 'offeringCode');
    if (code === undefined) continue;
    const offering = `offering ${code}`;
    add(offering, text(o, 'id'));
    for (const v of records(o['variants']))
      add(text(v, 'name') && `${offering} variant "${text(v, 'name')}"`, text(v, 'id'));
    for (const g of records(o['optionGroups'])) {
      const group = text(g, 'name') && `${offering} option group "${text(g, 'name')}"`;
      add(group, text(g, 'id'));
      for (const opt of records(g['options']))
        add(group && text(opt, 'name') && `${group} option "${text(opt, 'name')}"`, text(opt, 'id'));
    }
  }
  return found;
}

/** One line per thing whose id changed between two catalog answers. */
export function changedIds(first: unknown, second: unknown): string[] {
  const before = identities(first);
  const after = identities(second);
  const changes: string[] = [];
  for (const [what, id] of before) {
    const now = after.get(what);
    if (now !== undefined && now !== id) changes.push(`${what} had id ${id}, then ${now}`);
  }
  return changes;
}
