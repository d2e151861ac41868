import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { flagNameOf, type OptionKind, type OptionSchema, type OptionTable, runOptionTable } from '../config/options.js';
import { nonPublicHostReason } from '../http/host.js';
import { parseAuthMethod } from '../model/auth-method.js';
import { type AuthMethod, DEFAULT_CREDENTIAL_ENV, DEFAULT_WEBHOOK_SECRET_ENV } from '../model/contract-constants.js';
import { UsageError } from '../model/errors.js';

/**
 * The options several commands share, declared and parsed once: `--auth`, the credential source, `--base-url`,
 * ports and numbers, report paths, `--no-color`. Every command uses these, so messages are the same everywhere.
 */

const AUTH_NAMES = 'API_KEY | BEARER_TOKEN | HMAC_SIGNATURE (aliases: api-key, bearer, hmac)';

export const authOption = (command: Command, description = AUTH_NAMES, fallback?: string): Command =>
  fallback === undefined
    ? command.option('--auth <method>', description)
    : command.option('--auth <method>', description, fallback);

export const credentialOptions = (command: Command, what = 'holding the credential'): Command =>
  command
    .option('--credential-env <name>', `environment variable ${what} (default ${DEFAULT_CREDENTIAL_ENV})`)
    .option('--credential-file <path>', `file ${what} (instead of an environment variable)`);

export const baseUrlOption = (command: Command, description = 'provider API base address'): Command =>
  command.option('--base-url <url>', description);

/** --json/--junit/--markdown/--html; `-` writes to stdout. */
export const reportFileOptions = (command: Command): Command =>
  command
    .option('--json <file>', 'write the JSON report to a file (- for stdout)')
    .option('--junit <file>', 'write a JUnit XML report')
    .option('--markdown <file>', 'write a Markdown summary (e.g. $GITHUB_STEP_SUMMARY)')
    .option('--html <file>', 'write a self-contained HTML report');

/** `--events FILE|-`: the NDJSON event stream (spec/events.schema.json), written as the run goes. */
export const eventsOption = (command: Command): Command =>
  command.option(
    '--events <file>',
    'write an NDJSON event stream as the run goes (- for stdout; the console then goes to stderr)',
  );

export const noColorOption = (command: Command): Command =>
  command.option(
    '--no-color',
    'plain output: no colour and no spinner (also NO_COLOR, CI, TERM=dumb, or output not a terminal)',
  );

/** `--auth` as given (an alias or any case) → the method; anything else is a usage error. */
export function parseAuthFlag(value: string | undefined): AuthMethod {
  if (!value) throw new UsageError(`missing --auth <${AUTH_NAMES.split(' (')[0]?.replace(/ \| /g, '|')}>`);
  const method = parseAuthMethod(value);
  if (!method)
    throw new UsageError(
      `--auth "${value}" is not an auth method; use API_KEY, BEARER_TOKEN or HMAC_SIGNATURE (aliases api-key, bearer, hmac)`,
    );
  return method;
}

/**
 * For an address typed without its scheme ("localhost:3000"): the URL it most likely means, as a hint.
 * A loopback or private host gets http:// and --local (self-tests); anything else https://.
 */
export function suggestedBaseUrl(value: string, local: boolean): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || value.trim() === '') return undefined;
  let host: string;
  try {
    host = new URL(`http://${value}`).hostname;
  } catch {
    return undefined;
  }
  if (nonPublicHostReason(host)) return `did you mean --base-url http://${value}${local ? '' : ' --local'}?`;
  return `did you mean --base-url https://${value}?`;
}

/** `--base-url`: an absolute http(s) URL; a missing scheme gets a suggestion. */
export function parseBaseUrlFlag(value: string | undefined, local = false): string {
  if (!value) throw new UsageError('missing --base-url <url> (the provider API base address)');
  const suggestion = suggestedBaseUrl(value, local);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `--base-url "${value}" is not a URL (expected e.g. https://provider.example.com/api)`,
      suggestion,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--base-url must be http(s), got ${url.protocol}`, suggestion);
  return value;
}

/** A whole number flag within bounds (ports, timeouts, counts); absent → the fallback. */
export function parseIntegerFlag(
  flag: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max} (got "${value}")`);
  return n;
}

export const parsePortFlag = (flag: string, value: string | undefined, fallback: number): number =>
  parseIntegerFlag(flag, value, fallback, 0, 65535);

/** A positive number flag (seconds may be fractional); absent → undefined. */
export function parsePositiveFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a positive number (got "${value}")`);
  return n;
}

/** The credential file's content; one trailing newline is an editor artefact, not part of the secret. */
export function readCredentialFile(path: string, cwd: string): { value: string; path: string } {
  const absolute = resolve(cwd, path);
  try {
    return { value: readFileSync(absolute, 'utf8').replace(/\r?\n$/, ''), path: absolute };
  } catch (e) {
    throw new UsageError(`cannot read --credential-file ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** A repeatable option whose values may also be comma-separated (`--fault a --fault b,c`). */
export const collectList = (value: string, previous: string[] = []): string[] => [
  ...previous,
  ...value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];

/** Where `provcert mock-provider` listens unless told otherwise (the CI examples use it). */
export const MOCK_PROVIDER_DEFAULT_PORT = 4010;

/** `Per-request timeout in milliseconds.` → `per-request timeout in milliseconds`: the schema's words as a help line. */
const helpLine = (description: string): string =>
  description.charAt(0).toLowerCase() + description.slice(1).replace(/\.$/, '');

const defaultText = (value: unknown): string => (Array.isArray(value) ? value.join(',') : String(value));

/**
 * The flag of a run setting, declared from its schema: its name (`maxExpiryWait` → `--max-expiry-wait`), its value's
 * name (`x-flag-value`), its help (the description and the `default`). The default is only shown: a flag given is a
 * source above the environment and the file, so commander must not set it.
 */
function settingFlag(command: Command, key: string, kind: OptionKind, schema: OptionSchema): Command {
  const flag = flagNameOf(key);
  const value = schema['x-flag-value'] ?? (kind === 'integer' ? 'n' : kind === 'list' ? 'list' : 'value');
  const help = helpLine(schema.description ?? key);
  const shown = schema.default === undefined || kind === 'boolean' ? '' : ` (default ${defaultText(schema.default)})`;
  return command.option(kind === 'boolean' ? flag : `${flag} <${value}>`, `${help}${shown}`);
}

/**
 * Where the embedded webhook receiver listens: `run`'s flags, which `replay` declares too (parsed by parseRunFlags,
 * like every run option). `defaults` says where it listens without them.
 */
export const webhookReceiverOptions = (
  command: Command,
  defaults = { port: 'default 8787', host: 'default 127.0.0.1' },
): Command =>
  command
    .option('--webhook-port <n>', `port of the embedded webhook receiver (${defaults.port}; 0 = any free port)`)
    .option('--webhook-host <host>', `host of the embedded webhook receiver (${defaults.host})`);

/**
 * `run`'s flags: one per setting of spec/config.schema.json (or a test's table), in the schema's order, then the
 * run's own (the event stream, the spec, the config file, colour). An option added to the schema is a flag here
 * (and a PROVCERT_* variable, and a config key) with no code.
 */
export function runOptions(command: Command, table: OptionTable = runOptionTable()): Command {
  for (const [key, kind] of Object.entries(table.kinds))
    settingFlag(command, key, kind, table.schema.properties[key] ?? {});
  return noColorOption(
    eventsOption(command)
      .option('--spec <path>', 'use this OpenAPI document instead of the bundled contract')
      .option(
        '--config <file>',
        'settings file (default ./provcert.config.yaml when present); flags > PROVCERT_* environment > file > defaults',
      ),
  );
}

/**
 * A secret from the environment variable `envName`, never from a flag value (it would land in shell history and
 * `ps`); unset or empty is a usage error naming the variable, `what` it holds and how to fix it.
 */
export function secretFromVariable(env: NodeJS.ProcessEnv, envName: string, what: string, remedy: string): string {
  const secret = env[envName];
  if (!secret) throw new UsageError(`missing ${what}: the environment variable ${envName} is not set`, remedy);
  return secret;
}

/** The webhook secret from `--secret-env NAME` (default SERVICE_WEBHOOK_SECRET). */
export function secretFromEnv(env: NodeJS.ProcessEnv, name: string | undefined): string {
  return secretFromVariable(
    env,
    name ?? DEFAULT_WEBHOOK_SECRET_ENV,
    'webhook secret',
    'set it, or pass --secret-env NAME',
  );
}
