import { CHECKS } from '../../checks/framework/registry.js';
import {
  type Coverage,
  computeCoverage,
  coreSideText,
  coverageHolds,
  coverageTotalsText,
} from '../../contract/coverage.js';
import { loadRequirements } from '../../contract/requirements.js';
import { FAULTS, INPUT_FAULTS } from '../../reference-provider/index.js';
import type { CommandContext } from '../command.js';
import { EXIT } from '../io.js';

/** The coverage matrix from the bundled catalog, the check registry and the reference provider's faults. */
export async function bundledCoverage(): Promise<Coverage> {
  const catalog = await loadRequirements();
  // Provider fault switches and wrong run inputs both prove a check: each is run by a table-driven end-to-end test.
  const faults = [...Object.entries(FAULTS), ...Object.entries(INPUT_FAULTS)].map(([name, f]) => ({
    name,
    check: f.check,
    requirement: f.requirement,
  }));
  return computeCoverage(catalog.requirements, CHECKS, faults);
}

function renderText(c: Coverage): string {
  const width = Math.max(...c.rows.map((r) => r.id.length));
  const lines: string[] = [];
  for (const r of c.rows) {
    const how =
      r.verification === 'checked'
        ? `${r.checks.join(', ')}  ← ${r.faults.length > 0 ? r.faults.join(', ') : 'UNPROVEN: no fault'}`
        : `(${r.verification}${r.implementedBy ? `, implemented by ${r.implementedBy} ← ${r.provenBy ?? 'UNPROVEN'}` : ''}) ${r.reason ?? ''}`;
    lines.push(`${r.problems.length > 0 ? '✗' : ' '} ${r.id.padEnd(width)}  ${how}`);
    for (const p of r.problems) lines.push(`  ${' '.repeat(width)}  ${p}`);
  }
  for (const p of c.problems) lines.push(`✗ ${p}`);
  lines.push('', coverageTotalsText(c), coreSideText(c));
  return `${lines.join('\n')}\n`;
}

/** `provcert coverage`: requirement → checks → the faults proving each check catches a violation. */
export async function execute({ io }: CommandContext, opts: { json?: boolean }): Promise<number> {
  const coverage = await bundledCoverage();
  io.stdout.write(
    opts.json
      ? `${JSON.stringify({ ...coverage, summary: coverageTotalsText(coverage), coreSide: coreSideText(coverage) }, null, 2)}\n`
      : renderText(coverage),
  );
  return coverageHolds(coverage) ? EXIT.ok : EXIT.failed;
}
