import { join, resolve } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { DEFAULT_WEBHOOK_SECRET_ENV } from '../model/contract-constants.js';
import { UsageError } from '../model/errors.js';
import { type IngestLimits, LIMIT_NAMES } from '../model/ingest-limits.js';
import {
  type ConfiguredProvider,
  DEFAULT_ADMIN_TOKEN_ENV,
  DEFAULT_CREDENTIAL_SUBDIR,
  DEFAULT_DATA_DIR,
  DEFAULT_MAX_EXPIRY_WAIT_S,
  DEFAULT_SERVE_HOST,
  DEFAULT_SERVE_PORT,
  DEFAULT_WEBHOOK_SECRET_OVERLAP_S,
  type ServeSettings,
} from '../model/serve-settings.js';
import { isSlug, SLUG_RULE } from '../model/slug.js';
import { readDataFile } from '../util/data-file.js';
import { compileSpecSchemas } from '../util/schema-compiler.js';
import { specSchema } from '../util/spec-schema.js';
import { flagNameOf } from './options.js';

/** Flags as commander hands them over. */
export interface RawServeOptions {
  port?: string;
  host?: string;
  dataDir?: string;
  config?: string;
  local?: boolean;
  slug?: string;
  webhookSecretEnv?: string;
  credentialDir?: string;
  maxExpiryWait?: string;
  webhookSecretOverlap?: string;
  signingKey?: string;
  /** Limit flags, by limit name (strings as commander hands them over). */
  limits?: Partial<Record<keyof IngestLimits, string>>;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_EXPIRY_WAIT_LIMIT_S = 3600;
const MAX_WEBHOOK_SECRET_OVERLAP_S = 7 * 24 * 3600;

/** The settings spec/serve-config.schema.json describes, for messages. */
const SERVE_KEYS = (specSchema('serve-config.schema.json')['properties'] ?? {}) as Record<string, unknown>;

/** A whole number in a range, from a flag (text) or the config file (a number); an empty flag is not 0. */
const wholeNumber =
  (what: string, min: number, max: number) =>
  (value: unknown, where: string): number => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max)
      throw new UsageError(`${where} must be ${what} from ${min} to ${max} (got "${String(value)}")`);
    return n;
  };

const port = wholeNumber('a port number', 0, 65535);
const expiryWait = wholeNumber('a whole number of seconds', 1, MAX_EXPIRY_WAIT_LIMIT_S);
const overlapSeconds = wholeNumber('a whole number of seconds', 0, MAX_WEBHOOK_SECRET_OVERLAP_S);

/**
 * A number setting: its flag, else the config file's key, else the default, each named in its own error. The key is
 * the setting's one name: the flag is derived from it (maxExpiryWait → --max-expiry-wait).
 */
function numberSetting(
  parse: (value: unknown, where: string) => number,
  key: 'port' | 'maxExpiryWait' | 'webhookSecretOverlap',
  given: { raw: RawServeOptions; file: Record<string, unknown> },
  fallback: number,
): number {
  const [flag, inFile] = [given.raw[key], given.file[key]];
  if (flag !== undefined) return parse(flag, flagNameOf(key));
  if (inFile !== undefined) return parse(inFile, `config ${key}`);
  return fallback;
}

function slugOf(value: unknown, where: string): string {
  if (!isSlug(value)) throw new UsageError(`${where}: "${String(value)}" is not a provider slug (${SLUG_RULE})`);
  return value;
}

function envName(value: unknown, where: string): string {
  if (typeof value !== 'string' || !ENV_NAME.test(value))
    throw new UsageError(`${where} must be an environment variable name (got "${String(value)}")`);
  return value;
}

async function readConfigFile(path: string): Promise<Record<string, unknown>> {
  const label = `--config ${path}`;
  const { value: doc } = await readDataFile(path, { label, format: 'yaml' });
  if (doc === null || doc === undefined) return {};
  const validate = (serveSchema ??= compileSpecSchemas(['serve-config.schema.json'], {
    allErrors: true,
    verbose: true,
  }));
  if (!validate(doc)) throw new UsageError(`${label}: ${explainServeError(validate.errors?.[0])}`);
  return doc as Record<string, unknown>;
}

let serveSchema: ValidateFunction | undefined;

/** One line for the first problem: the key path and what it must be, never the value (it may be a secret). */
function explainServeError(error: ErrorObject | undefined): string {
  if (!error) return 'is invalid';
  const where = error.instancePath ? error.instancePath.slice(1).replace(/\//g, '.') : 'the file';
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') {
    const key = String(params['additionalProperty']);
    const known = error.instancePath === '' ? Object.keys(SERVE_KEYS).join(', ') : 'slug, webhookSecretEnv';
    return `unknown setting ${key}${where === 'the file' ? '' : ` in ${where}`} (known: ${known}); secrets belong in the environment`;
  }
  if (error.keyword === 'type' && error.instancePath === '') return 'must hold a mapping of settings';
  const expected = (error.parentSchema as Record<string, unknown> | undefined)?.['x-expected'];
  return `${where} ${typeof expected === 'string' ? `must be ${expected}` : (error.message ?? 'is invalid')}`;
}

/** --signing-key (from the working directory) or the config file's signingKey (from the file's folder). */
function signingKeyFile(
  raw: RawServeOptions,
  file: Record<string, unknown>,
  cwd: string,
  base: string,
): { signingKeyFile?: string } {
  if (raw.signingKey !== undefined) {
    if (raw.signingKey.trim() === '') throw new UsageError(`${flagNameOf('signingKey')} must name a PEM file`);
    return { signingKeyFile: resolve(cwd, raw.signingKey) };
  }
  const inFile = file['signingKey'];
  return typeof inFile === 'string' ? { signingKeyFile: resolve(base, inFile) } : {};
}

/** Flags > config file > defaults. Every problem is a UsageError naming the flag or setting. */
export async function resolveServeSettings(raw: RawServeOptions, cwd: string): Promise<ServeSettings> {
  const configPath = raw.config === undefined ? undefined : resolve(cwd, raw.config);
  const file = configPath ? await readConfigFile(configPath) : {};
  const base = configPath ? resolve(configPath, '..') : cwd;
  const providers: ConfiguredProvider[] = [];
  const listed = file['providers'];
  if (listed !== undefined) {
    if (!Array.isArray(listed)) throw new UsageError('config providers must be a list of { slug, webhookSecretEnv? }');
    listed.forEach((p: unknown, i) => {
      const entry = (typeof p === 'object' && p !== null ? p : {}) as Record<string, unknown>;
      const slug = slugOf(entry['slug'], `config providers[${i}].slug`);
      const secretEnv = entry['webhookSecretEnv'];
      providers.push({
        slug,
        ...(secretEnv === undefined
          ? {}
          : { webhookSecretEnv: envName(secretEnv, `config providers[${i}].webhookSecretEnv`) }),
      });
    });
  }
  for (const s of (raw.slug ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    if (!providers.some((p) => p.slug === s)) providers.push({ slug: slugOf(s, flagNameOf('slug')) });
  }
  const limits: Partial<IngestLimits> = {};
  for (const name of LIMIT_NAMES) {
    const flag = raw.limits?.[name];
    const value = flag !== undefined ? Number(flag) : file[name];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      throw new UsageError(
        `${flag !== undefined ? flagNameOf(name) : `config ${name}`} must be a positive whole number (got "${String(flag ?? value)}")`,
      );
    }
    limits[name] = value;
  }
  const host = raw.host ?? file['host'] ?? DEFAULT_SERVE_HOST;
  if (typeof host !== 'string' || host === '') throw new UsageError('host must be a host name or address');
  const dataDir =
    raw.dataDir === undefined
      ? typeof file['dataDir'] === 'string'
        ? resolve(base, file['dataDir'])
        : resolve(cwd, DEFAULT_DATA_DIR)
      : resolve(cwd, raw.dataDir);
  return {
    host,
    port: numberSetting(port, 'port', { raw, file }, DEFAULT_SERVE_PORT),
    dataDir,
    local: raw.local === true || file['local'] === true,
    webhookSecretEnv: envName(
      raw.webhookSecretEnv ?? file['webhookSecretEnv'] ?? DEFAULT_WEBHOOK_SECRET_ENV,
      'webhookSecretEnv',
    ),
    adminTokenEnv: envName(file['adminTokenEnv'] ?? DEFAULT_ADMIN_TOKEN_ENV, 'config adminTokenEnv'),
    limits,
    credentialDir:
      raw.credentialDir !== undefined
        ? resolve(cwd, raw.credentialDir)
        : typeof file['credentialDir'] === 'string'
          ? resolve(base, file['credentialDir'])
          : join(dataDir, DEFAULT_CREDENTIAL_SUBDIR),
    providers,
    ...(file['expectedFailures'] !== undefined ? { expectedFailures: file['expectedFailures'] } : {}),
    maxExpiryWait: numberSetting(expiryWait, 'maxExpiryWait', { raw, file }, DEFAULT_MAX_EXPIRY_WAIT_S),
    webhookSecretOverlapS: numberSetting(
      overlapSeconds,
      'webhookSecretOverlap',
      { raw, file },
      DEFAULT_WEBHOOK_SECRET_OVERLAP_S,
    ),
    ...signingKeyFile(raw, file, cwd, base),
  };
}
