import { stringify } from 'yaml';
import { DEFAULT_CONFIG_FILE, envNameOf, flagNameOf, isOptionKey } from './options.js';
import { configSchema, type PropertySchema } from './schema.js';

const HEADER = [
  `# ${DEFAULT_CONFIG_FILE}: options for \`provcert run\` (and \`provcert doctor\`).`,
  '# Precedence: command-line flags > PROVCERT_* environment variables > this file > defaults.',
  '# Secrets never go here: name the environment variable that holds them (credentialEnv,',
  '# webhookSecretEnv) or a file (credentialFile). Keys are checked: a typo is an error.',
  '# Every option is commented out and shows its default (or an example). Uncomment what you need.',
  '# JSON Schema of this file: spec/config.schema.json in the provcert package.',
];

const yamlValue = (value: unknown): string =>
  stringify(value, { collectionStyle: 'flow', flowCollectionPadding: false, lineWidth: 0 }).trim();

function block(key: string, property: PropertySchema): string[] {
  const hasDefault = property.default !== undefined;
  const value = hasDefault ? property.default : property.examples?.[0];
  const where = isOptionKey(key) ? `flag ${flagNameOf(key)} · env ${envNameOf(key)}` : 'config file only';
  const note = hasDefault ? `default ${yamlValue(property.default)}` : 'no default; example below';
  return [`# ${property.description ?? key}`, `#   ${where} · ${note}`, `# ${key}: ${yamlValue(value ?? '')}`];
}

/** The commented starter file `provcert init` writes, generated from the schema so it never drifts from it. */
export function renderStarterConfig(): string {
  const blocks = Object.entries(configSchema().properties).map(([key, property]) => block(key, property).join('\n'));
  return `${HEADER.join('\n')}\n\n${blocks.join('\n\n')}\n`;
}
