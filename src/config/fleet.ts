import { createHash } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { problemsError, UsageError } from '../model/errors.js';
import type { FleetIdentity } from '../model/fleet-report.js';
import type { RunValues } from '../model/run-values.js';
import type { ExpectedFailure } from '../model/waivers.js';
import { DataFileError, type DataText, lineOf, readDataFile } from '../util/data-file.js';
import { parseExpectedFailures } from '../util/expected-failures.js';
import { isRecord } from '../util/json.js';
import { FLEET_RUN_KEYS, type FleetProblem, validateFleet } from './fleet-schema.js';
import { splitLists, toRunValues } from './values.js';

export const DEFAULT_FLEET_WEBHOOK_PORT = 8787;

/** One provider of a fleet: its slug and its run options as `run`'s flags (defaults merged in). */
export interface FleetProviderEntry {
  slug: string;
  /** Typed as the schema describes them; credentialFile resolved against the fleet file's folder. */
  options: RunValues;
  /** Whether the entry (or defaults) named webhookSecretEnv: then an unset variable is that provider's error. */
  webhookSecretNamed: boolean;
}

/** A validated fleet file. Nothing here holds a secret: only the names of where secrets live. */
export interface FleetFile {
  /** The file as the user named it (messages). */
  label: string;
  name: string;
  webhookPort: number;
  webhookHost: string;
  providers: FleetProviderEntry[];
  expectedFailures: ExpectedFailure[];
  identity: FleetIdentity;
}

/** Comma-separated lists become lists in `defaults` and in each provider, so every entry is validated alone. */
function withListsSplit(value: Record<string, unknown>): Record<string, unknown> {
  const out = { ...value };
  if (isRecord(value['defaults'])) out['defaults'] = splitLists(value['defaults']);
  if (Array.isArray(value['providers']))
    out['providers'] = value['providers'].map((p: unknown) => (isRecord(p) ? splitLists(p) : p));
  return out;
}

/** Problems the schema cannot state: duplicate slugs, two credential sources, waivers naming unknown providers. */
function crossChecks(fleet: Record<string, unknown>): FleetProblem[] {
  const problems: FleetProblem[] = [];
  const providers = (fleet['providers'] as Record<string, unknown>[]) ?? [];
  const firstAt = new Map<string, number>();
  providers.forEach((p, i) => {
    const slug = String(p['slug']);
    const earlier = firstAt.get(slug);
    if (earlier !== undefined)
      problems.push({
        pointer: `/providers/${i}/slug`,
        reason: `slug "${slug}" is already used by /providers/${earlier}; every provider needs its own slug`,
      });
    else firstAt.set(slug, i);
    if (p['credentialEnv'] !== undefined && p['credentialFile'] !== undefined)
      problems.push({ pointer: `/providers/${i}`, reason: 'set credentialEnv or credentialFile, not both' });
  });
  const defaults = fleet['defaults'];
  if (isRecord(defaults) && defaults['credentialEnv'] !== undefined && defaults['credentialFile'] !== undefined)
    problems.push({ pointer: '/defaults', reason: 'set credentialEnv or credentialFile, not both' });
  const waivers = Array.isArray(fleet['expectedFailures']) ? fleet['expectedFailures'] : [];
  waivers.forEach((w: unknown, i) => {
    const provider = isRecord(w) ? w['provider'] : undefined;
    if (typeof provider === 'string' && !firstAt.has(provider))
      problems.push({
        pointer: `/expectedFailures/${i}/provider`,
        reason: `names provider "${provider}", which is not in this fleet (slugs: ${[...firstAt.keys()].join(', ')})`,
      });
  });
  return problems;
}

const CREDENTIAL_KEYS = ['credentialEnv', 'credentialFile'] as const;

/** A provider's options: its own, else the defaults'. The credential source is one choice, taken whole. */
function effectiveOptions(defaults: Record<string, unknown>, entry: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  const ownCredential = CREDENTIAL_KEYS.some((k) => entry[k] !== undefined);
  for (const key of FLEET_RUN_KEYS) {
    const fromEntry = CREDENTIAL_KEYS.includes(key as (typeof CREDENTIAL_KEYS)[number]) && ownCredential;
    const value = fromEntry ? entry[key] : (entry[key] ?? defaults[key]);
    if (value !== undefined) merged[key] = value;
  }
  return { baseUrl: entry['baseUrl'], ...merged };
}

/** JSON with sorted keys: the same content always gives the same text, whatever the key order in the file. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isRecord(value))
    return `{${Object.keys(value)
      .sort()
      .filter((k) => value[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/**
 * The fleet's identity: its name, a digest of what is certified (each provider's effective options and the
 * waivers; never a secret's value, which the file cannot hold) and every slug. Shards of one fleet share it,
 * whatever their receiver's port or host.
 */
export function fleetIdentity(
  name: string,
  providers: readonly { slug: string; effective: Record<string, unknown> }[],
  expectedFailures: readonly unknown[],
): FleetIdentity {
  const sorted = [...providers].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  const content = canonicalJson({
    name,
    providers: sorted.map((p) => ({ slug: p.slug, ...p.effective })),
    expectedFailures,
  });
  return {
    name,
    digest: createHash('sha256').update(content, 'utf8').digest('hex'),
    slugs: sorted.map((p) => p.slug),
    // So merge-reports can name the address of a provider whose shard report is missing.
    baseUrls: Object.fromEntries(sorted.map((p) => [p.slug, String(p.effective['baseUrl'] ?? '')])),
  };
}

/**
 * Read, parse and validate a fleet file (YAML or JSON). Every problem is a UsageError (exit 2) before anything
 * runs, one line each with the file, line and key path. A missing secret is not a problem here: it belongs to
 * its provider's result.
 */
export async function loadFleetFile(path: string, cwd: string): Promise<FleetFile> {
  const absolute = resolve(cwd, path);
  let read: DataText;
  try {
    read = await readDataFile(absolute, { label: `fleet file ${path}`, format: 'yaml' });
  } catch (e) {
    // Problems inside the file name it as its lines do (`fleet.yaml:3:1: …`); only reading names the fleet file.
    if (e instanceof DataFileError && (e.kind === 'syntax' || e.kind === 'aliases' || e.kind === 'too-deep'))
      throw new DataFileError(e.kind, e.message.replace(`fleet file ${path}`, path));
    throw e;
  }
  const { value } = read;
  if (!isRecord(value))
    throw new UsageError(
      `${path}: must be a mapping with name and providers (e.g. "name: my-fleet"), found ${
        value === null || value === undefined ? 'nothing' : Array.isArray(value) ? 'a list' : `a ${typeof value}`
      }`,
    );
  const fleet = withListsSplit(value);
  const schemaProblems = validateFleet(fleet);
  const problems = schemaProblems.length > 0 ? schemaProblems : crossChecks(fleet);
  if (problems.length > 0) {
    const lines = problems.map((p) => {
      const line = lineOf(read, p.pointer, p.key);
      const at = p.pointer === '' ? '' : `${p.pointer} `;
      return `${path}${line === undefined ? '' : `:${line}`}: ${at}${p.reason}`;
    });
    throw problemsError(lines, path);
  }
  return toFleetFile(fleet, path, cwd, dirname(absolute));
}

function toFleetFile(fleet: Record<string, unknown>, label: string, cwd: string, fileDir: string): FleetFile {
  const defaults = isRecord(fleet['defaults']) ? fleet['defaults'] : {};
  const entries = (fleet['providers'] as Record<string, unknown>[]).map((entry) => ({
    slug: String(entry['slug']),
    effective: effectiveOptions(defaults, entry),
  }));
  // Already valid (the schema); read through the one waiver reader so entries look the same as a config file's.
  const expectedFailures: ExpectedFailure[] = parseExpectedFailures(fleet['expectedFailures'], label);
  const name = String(fleet['name']);
  return {
    label,
    name,
    webhookPort: (fleet['webhookPort'] as number | undefined) ?? DEFAULT_FLEET_WEBHOOK_PORT,
    webhookHost: (fleet['webhookHost'] as string | undefined) ?? '127.0.0.1',
    providers: entries.map(({ slug, effective }) => ({
      slug,
      options: toRunValues(effective, { cwd, pathsFrom: fileDir }),
      webhookSecretNamed: effective['webhookSecretEnv'] !== undefined,
    })),
    expectedFailures,
    identity: fleetIdentity(name, entries, expectedFailures),
  };
}
