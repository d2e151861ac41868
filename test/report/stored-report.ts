import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CHECK_IDS } from '../../src/model/check-ids.js';
import type { RunReport } from '../../src/model/report.js';

interface CatalogEntry {
  id: string;
  section: string;
  quote: string;
  checks?: string[];
}

const catalog = (
  parse(readFileSync(join(import.meta.dirname, '../../spec/requirements.yaml'), 'utf8')) as {
    requirements: CatalogEntry[];
  }
).requirements;

const primaryOf = (check: string): CatalogEntry => {
  const entry = catalog.find((r) => r.checks?.includes(check));
  if (!entry) throw new Error(`no requirement of the catalog lists the check ${check}`);
  return entry;
};

/**
 * A sample report as provcert would have stored it: each check cites a requirement of the catalog that lists it, and
 * the report's requirement texts are the catalog's, and the checks a sample leaves out are recorded as the run's --skip.
 * Reports read back from a file are checked against the catalog and their own selection.
 */
export function storedReport(report: RunReport): RunReport {
  const checks = report.checks.map((check) => {
    const id = primaryOf(check.id).id;
    return { ...check, requirements: [id], findings: check.findings.map((f) => ({ ...f, requirement: id })) };
  });
  const cited = [...new Set(checks.flatMap((c) => c.requirements))].sort();
  const requirements = Object.fromEntries(
    cited.map((id) => {
      const entry = catalog.find((r) => r.id === id) as CatalogEntry;
      return [id, { section: entry.section, quote: entry.quote }];
    }),
  );
  const present = new Set(checks.map((c) => c.id));
  const skip = CHECK_IDS.filter((id) => !present.has(id));
  return { ...report, checks, requirements, inputs: { ...report.inputs, skip } };
}
