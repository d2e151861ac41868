import { isRecord, records, str } from '../../util/json.js';
/**
 * Catalog rules the schema cannot express: unique ids, category references and counts, option-group
 * limits. Pure and defensive (works on a catalog that failed the schema too, skipping what it cannot
 * read), so one run lists every problem.
 */

/** A broken rule and the catalog requirement it stands on. */
export interface ConsistencyProblem {
  text: string;
  requirement: 'ORDER-FLOW-BY-IDS' | 'OPTION-GROUP-LIMITS-CONSISTENT' | 'CATALOG-SAME-IDS-ACROSS-ROUTES';
}

export interface Judgement {
  problems: ConsistencyProblem[];
  warnings: string[];
  /** Rules not judged because an optional field they need is absent (never a warning: omitting it is allowed). */
  notes: string[];
}

type Obj = Record<string, unknown>;
const int = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) ? value : undefined;

/** Ids that repeat: the order flow uses ids, so an id must name one thing. */
const byIds = (out: Judgement, text: string): void => {
  out.problems.push({ text, requirement: 'ORDER-FLOW-BY-IDS' });
};
const limits = (out: Judgement, text: string): void => {
  out.problems.push({ text, requirement: 'OPTION-GROUP-LIMITS-CONSISTENT' });
};

/** Values that occur more than once. */
function duplicates(values: readonly (string | undefined)[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const v of values) {
    if (v === undefined) continue;
    if (seen.has(v)) dup.add(v);
    seen.add(v);
  }
  return [...dup];
}

function judgeOptionGroups(offering: Obj, at: string, out: Judgement): void {
  const groups = records(offering['optionGroups']);
  const dupGroups = duplicates(groups.map((g) => str(g['id'])));
  if (dupGroups.length > 0) byIds(out, `${at} has option group id(s) ${dupGroups.join(', ')} more than once`);
  for (const group of groups) {
    const gid = str(group['id']) ?? '?';
    const where = `${at} option group ${gid}`;
    const options = records(group['options']);
    const min = int(group['minSelections']);
    const max = int(group['maxSelections']);
    if (min !== undefined && min < 0) limits(out, `${where}: minSelections ${min} is negative`);
    if (min !== undefined && max !== undefined && min > max)
      limits(out, `${where}: minSelections ${min} > maxSelections ${max}`);
    // Per-option quantities (selectedOptions[].quantity) can make more selections than options: advice only.
    if (max !== undefined && max > options.length)
      out.warnings.push(
        `${where}: maxSelections ${max} > its ${options.length} option(s); reachable only with option quantities above 1`,
      );
    if (min !== undefined && min > options.length)
      out.warnings.push(
        `${where}: minSelections ${min} > its ${options.length} option(s); satisfiable only with option quantities above 1`,
      );
    if (group['isRequired'] === true && min === 0) out.warnings.push(`${where} is required but minSelections is 0`);
    if (group['isRequired'] === false && min !== undefined && min > 0)
      out.warnings.push(`${where} is not required but minSelections is ${min}`);
    const dupOptions = duplicates(options.map((o) => str(o['id'])));
    if (dupOptions.length > 0) byIds(out, `${where} has option id(s) ${dupOptions.join(', ')} more than once`);
  }
}

/** Every consistency problem of a catalog; `providerSlug` (from provider-info), when known, must match. */
export function judgeCatalogConsistency(catalog: unknown, providerSlug?: string): Judgement {
  const out: Judgement = { problems: [], warnings: [], notes: [] };
  if (!isRecord(catalog)) return out;
  const slug = str(catalog['providerSlug']);
  if (providerSlug !== undefined && slug !== undefined && slug !== providerSlug) {
    out.problems.push({
      text: `providerSlug "${slug}" differs from the slug of GET /provider-info ("${providerSlug}")`,
      requirement: 'CATALOG-SAME-IDS-ACROSS-ROUTES',
    });
  }
  const categories = records(catalog['categories']);
  const offerings = records(catalog['offerings']);
  if (Array.isArray(catalog['offerings']) && offerings.length === 0)
    out.warnings.push('the catalog has no offerings; nothing can be discovered or quoted');

  const dupCatIds = duplicates(categories.map((c) => str(c['id'])));
  if (dupCatIds.length > 0) byIds(out, `category id(s) ${dupCatIds.join(', ')} occur more than once`);
  const dupCatSlugs = duplicates(categories.map((c) => str(c['slug'])));
  if (dupCatSlugs.length > 0) byIds(out, `category slug(s) ${dupCatSlugs.join(', ')} occur more than once`);
  const dupIds = duplicates(offerings.map((o) => str(o['id'])));
  if (dupIds.length > 0)
    byIds(out, `offering id(s) ${dupIds.join(', ')} occur more than once; ids must identify one offering`);
  const dupCodes = duplicates(offerings.map((o) => str(o['offeringCode'])));
  if (dupCodes.length > 0)
    out.warnings.push(
      `offeringCode(s) ${dupCodes.join(', ')} occur more than once, so GET /offerings/{offeringCode} is ambiguous`,
    );

  const categoryBySlug = new Map(
    categories.flatMap((c) => (str(c['slug']) === undefined ? [] : [[str(c['slug']) as string, c] as const])),
  );
  const counts = new Map<string, number>();
  for (const offering of offerings) {
    const id = str(offering['id']) ?? '?';
    const at = `offering ${id}`;
    const cat = str(offering['categorySlug']);
    if (cat !== undefined) {
      counts.set(cat, (counts.get(cat) ?? 0) + 1);
      const category = categoryBySlug.get(cat);
      // The contract does not say categorySlug must name a listed category: advice only.
      if (!category) out.warnings.push(`${at} has categorySlug "${cat}", which is not a category slug of the catalog`);
      else {
        const title = str(offering['categoryTitle']);
        const catTitle = str(category['title']);
        if (title !== undefined && catTitle !== undefined && title !== catTitle)
          out.warnings.push(`${at} has categoryTitle "${title}" but category ${cat} is titled "${catTitle}"`);
      }
    }
    const dupVariants = duplicates(records(offering['variants']).map((v) => str(v['id'])));
    if (dupVariants.length > 0) byIds(out, `${at} has variant id(s) ${dupVariants.join(', ')} more than once`);
    for (const [field, value] of [
      ['basePrice', offering['basePrice']],
      ...records(offering['variants']).map(
        (v) => [`variant ${str(v['id']) ?? '?'} basePrice`, v['basePrice']] as const,
      ),
    ] as const) {
      if (typeof value === 'number' && value < 0) out.warnings.push(`${at} ${field} is negative (${value})`);
    }
    judgeOptionGroups(offering, at, out);
  }
  // offeringsCount can only be counted when every offering names its category (categorySlug is optional).
  const uncategorised = offerings.filter((o) => str(o['categorySlug']) === undefined).length;
  if (uncategorised > 0 && categories.some((c) => int(c['offeringsCount']) !== undefined)) {
    out.notes.push(`offeringsCount not compared: ${uncategorised} offering(s) omit the optional categorySlug`);
  }
  for (const category of uncategorised > 0 ? [] : categories) {
    const cslug = str(category['slug']);
    const stated = int(category['offeringsCount']);
    if (cslug === undefined || stated === undefined) continue;
    const actual = counts.get(cslug) ?? 0;
    // The contract does not define offeringsCount beyond its type (a location or availability may narrow it).
    if (stated !== actual)
      out.warnings.push(
        `category ${cslug} states offeringsCount ${stated}, but the catalog lists ${actual} offering(s) with categorySlug "${cslug}"`,
      );
  }
  return out;
}
