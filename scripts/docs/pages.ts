import {
  checkRequirementsTable,
  checksTable,
  commandsReference,
  commandsSummary,
  faultsTable,
  runOptionsTable,
} from './tables.js';

/** One generated block: the page it lives in, its name, the source it is rendered from. */
export interface GeneratedBlock {
  page: string;
  name: string;
  source: string;
  render: () => string | Promise<string>;
}

export const BLOCKS: readonly GeneratedBlock[] = [
  {
    page: 'docs/reference/run-options.md',
    name: 'run-options',
    source: 'spec/config.schema.json',
    render: runOptionsTable,
  },
  {
    page: 'docs/reference/checks.md',
    name: 'checks',
    source: 'src/checks/framework/registry.ts (provcert list --markdown)',
    render: checksTable,
  },
  {
    page: 'docs/reference/checks.md',
    name: 'check-requirements',
    source: 'src/checks/ and spec/requirements.yaml',
    render: checkRequirementsTable,
  },
  {
    page: 'docs/reference/faults.md',
    name: 'faults',
    source: 'src/reference-provider/faults.ts (provcert mock-provider --list-faults)',
    render: faultsTable,
  },
  {
    page: 'docs/reference/commands.md',
    name: 'commands-summary',
    source: 'src/cli/program.ts COMMANDS',
    render: commandsSummary,
  },
  {
    page: 'docs/reference/commands.md',
    name: 'commands',
    source: 'src/cli/program.ts COMMANDS (provcert <command> --help)',
    render: commandsReference,
  },
];
