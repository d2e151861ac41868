import type { Command } from 'commander';
import { CHECKS } from '../../checks/registry.js';
import { EXIT, type CliIo } from '../io.js';
import type { SetExit } from '../program.js';

/** `provcert list`: every check with its id, title, rule and where it applies. */
export function registerList(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('list')
    .description('list every check: id, title, the contract rule it enforces, where it applies')
    .option('--json', 'print as JSON')
    .action((opts: { json?: boolean }) => {
      const rows = CHECKS.map((c) => ({
        id: c.id,
        title: c.title,
        rule: c.rule,
        appliesTo: c.appliesTo.description,
        ...(c.appliesTo.operations?.length ? { operations: c.appliesTo.operations } : {}),
        createsOrders: c.createsOrders === true,
      }));
      if (opts.json) {
        io.stdout.write(JSON.stringify(rows, null, 2) + '\n');
        return setExit(EXIT.ok);
      }
      const width = Math.max(...rows.map((r) => r.id.length));
      for (const r of rows) {
        io.stdout.write(`${r.id.padEnd(width)}  ${r.title}\n${' '.repeat(width)}  applies: ${r.appliesTo}${r.createsOrders ? ' (creates test orders)' : ''}\n${' '.repeat(width)}  rule: ${r.rule}\n`);
      }
      return setExit(EXIT.ok);
    });
}
