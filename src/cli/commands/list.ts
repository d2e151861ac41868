import { CHECKS } from '../../checks/framework/registry.js';
import type { CommandContext } from '../command.js';
import { EXIT } from '../io.js';

interface CheckRow {
  id: string;
  title: string;
  rule: string;
  appliesTo: string;
  createsOrders: boolean;
}

/** A table cell: a `|` would end the cell early, a newline the row. */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** The README's "Checks" table (test/docs/readme.test.ts keeps the README equal to it). */
function markdownTable(rows: readonly CheckRow[]): string {
  const lines = rows.map((r) => {
    const applies = r.appliesTo + (r.createsOrders ? '; creates test orders' : '');
    return `| \`${r.id}\` | ${cell(`${r.title}. ${r.rule}`)} | ${cell(applies)} |`;
  });
  return `${['| Id | What it verifies, and the contract rule | Applies to |', '| --- | --- | --- |', ...lines].join('\n')}\n`;
}

/** `provcert list`: every check with its id, title, rule and where it applies. */
export async function execute({ io }: CommandContext, opts: { json?: boolean; markdown?: boolean }): Promise<number> {
  const rows = CHECKS.map((c) => ({
    id: c.id,
    title: c.title,
    rule: c.rule,
    appliesTo: c.appliesTo.description,
    ...(c.appliesTo.operations?.length ? { operations: c.appliesTo.operations } : {}),
    createsOrders: c.group === 'transactional',
  }));
  if (opts.json) {
    io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return EXIT.ok;
  }
  if (opts.markdown) {
    io.stdout.write(markdownTable(rows));
    return EXIT.ok;
  }
  const width = Math.max(...rows.map((r) => r.id.length));
  const indent = ' '.repeat(width);
  for (const r of rows) {
    const orders = r.createsOrders ? ' (creates test orders)' : '';
    io.stdout.write(
      `${r.id.padEnd(width)}  ${r.title}\n${indent}  applies: ${r.appliesTo}${orders}\n${indent}  rule: ${r.rule}\n`,
    );
  }
  return EXIT.ok;
}
