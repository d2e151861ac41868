import { Command } from 'commander';
import { CHECKS } from '../../src/checks/framework/registry.js';
import { checkRows, markdownTable } from '../../src/cli/commands/list.js';
import { COMMANDS } from '../../src/cli/program.js';
import { envNameOf, flagNameOf, isOptionKey } from '../../src/config/options.js';
import { loadRequirements } from '../../src/contract/requirements.js';
import { FAULTS, type FaultSpec } from '../../src/reference-provider/faults.js';
import { specSchema } from '../../src/util/spec-schema.js';
import { code, table } from './markdown.js';

/*
 * The reference tables of docs/, each rendered from the one place its facts live. Adding a run option, a check,
 * a fault or a command changes that place only; `npm run docs` rewrites the tables.
 */

interface PropertySchema {
  description?: string;
  type?: string | string[];
  enum?: unknown[];
  items?: { enum?: unknown[]; $ref?: string };
  minimum?: number;
  maximum?: number;
  default?: unknown;
  'x-path'?: boolean;
}

const shown = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** What a value of the option looks like: its type, the values it takes, its bounds. */
function kindOf(property: PropertySchema): string {
  const types = [property.type ?? []].flat();
  if (property['x-path'] === true) return 'file path';
  if (property.enum) return `one of ${property.enum.map((v) => code(shown(v))).join(', ')}`;
  if (types.includes('array')) {
    if (property.items?.enum) return `list of ${property.items.enum.map((v) => code(shown(v))).join(', ')}`;
    if (property.items?.$ref?.endsWith('/checkId')) return 'list of check ids';
    return 'list';
  }
  const bounds =
    property.minimum !== undefined && property.maximum !== undefined ? ` ${property.minimum}–${property.maximum}` : '';
  return `${types.join(' or ')}${bounds}`;
}

/** spec/config.schema.json: every run option with its flag, variable and config key. */
export function runOptionsTable(): string {
  const schema = specSchema('config.schema.json') as { properties: Record<string, PropertySchema> };
  const rows = Object.entries(schema.properties).map(([key, property]) => [
    code(key),
    isOptionKey(key) ? code(flagNameOf(key)) : 'config file only',
    isOptionKey(key) ? code(envNameOf(key)) : '',
    kindOf(property),
    property.default === undefined ? '' : code(shown(property.default)),
    property.description ?? '',
  ]);
  return table(['Config key', 'Flag', 'Environment', 'Value', 'Default', 'Meaning'], rows);
}

/** The registry: what `provcert list --markdown` prints. */
export const checksTable = (): string => markdownTable(checkRows());

/** Each check's requirement ids (spec/requirements.yaml), the one its unattributed findings stand on first. */
export async function checkRequirementsTable(): Promise<string> {
  const catalog = await loadRequirements();
  const rows = CHECKS.map((check) => [
    code(check.id),
    check.group,
    check.requirements
      .map((id) => `${code(id)} (${catalog.requirementById(id)?.section ?? 'not in the catalog'})`)
      .join('; '),
  ]);
  return table(['Check', 'Group', 'Requirements it verifies (primary first) and their contract section'], rows);
}

/** src/reference-provider/faults.ts: what `provcert mock-provider --list-faults` prints, with the requirement. */
export function faultsTable(): string {
  const faults: [string, FaultSpec][] = Object.entries(FAULTS);
  const rows = faults.map(([name, fault]) => [
    code(name),
    code(fault.check),
    [fault.requirement, ...(fault.alsoBreaks ?? [])].map(code).join(', '),
    fault.description,
  ]);
  return table(['Fault', 'Caught by', 'Requirement it breaks', 'What it breaks'], rows);
}

/** Each command as commander declares it (src/cli/program.ts): the same text as `provcert <command> --help`. */
function declared(): Command[] {
  // A subcommand (`events resend`) follows its command, named as it is typed.
  return COMMANDS.flatMap((spec) => [
    spec.declare(new Command(spec.name)),
    ...(spec.subcommands ?? []).map((sub) => sub.declare(new Command(`${spec.name} ${sub.name}`))),
  ]);
}

/** The heading anchor of a command's section (GitHub's: spaces become dashes). */
const anchor = (c: Command): string => `provcert-${c.name().replace(/ /g, '-')}`;

export function commandsSummary(): string {
  return table(
    ['Command', 'What it does'],
    declared().map((c) => [`[${code(`provcert ${c.name()}`)}](#${anchor(c)})`, c.description()]),
  );
}

function commandSection(c: Command): string {
  const parts = [
    `### provcert ${c.name()}`,
    '',
    c.description(),
    '',
    '```text',
    `provcert ${c.name()} ${c.usage()}`,
    '```',
  ];
  const args = c.registeredArguments;
  if (args.length > 0) {
    const rows = args.map((a) => [
      code(a.required ? `<${a.name()}${a.variadic ? '...' : ''}>` : `[${a.name()}]`),
      a.description,
      a.defaultValue === undefined ? '' : code(shown(a.defaultValue)),
    ]);
    parts.push('', table(['Argument', 'Meaning', 'Default'], rows));
  }
  const options = c.options.filter((o) => !o.hidden);
  if (options.length > 0) {
    const rows = options.map((o) => [
      code(o.flags),
      o.description + (o.mandatory ? ' (required)' : ''),
      o.defaultValue === undefined || o.negate ? '' : code(shown(o.defaultValue)),
    ]);
    parts.push('', table(['Option', 'Meaning', 'Default'], rows));
  }
  return parts.join('\n');
}

export const commandsReference = (): string => declared().map(commandSection).join('\n\n');
