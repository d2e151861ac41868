import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { compileSpecSchemas } from '../util/schema-compiler.js';
import { specSchema } from '../util/spec-schema.js';
import { type ConfigProblem, explainConfigError, unknownKeyReason } from './explain.js';
import type { OptionKey } from './options.js';

/** The keys a fleet file allows, where: top level, `defaults`, and a provider entry. */
export const FLEET_KEYS = ['name', 'webhookPort', 'webhookHost', 'defaults', 'providers', 'expectedFailures'] as const;
/**
 * The run settings a fleet's `defaults` and provider entries take, under their config file names: the ones
 * spec/fleet.schema.json references from spec/config.schema.json (the schema is the one list).
 */
export const FLEET_RUN_KEYS: readonly OptionKey[] = Object.keys(
  (specSchema('fleet.schema.json') as { properties: { defaults: { properties: Record<string, unknown> } } }).properties
    .defaults.properties,
) as OptionKey[];
const PROVIDER_KEYS: readonly string[] = ['slug', 'baseUrl', ...FLEET_RUN_KEYS];
const WAIVER_KEYS: readonly string[] = ['check', 'requirement', 'provider', 'reason', 'until'];

/** Keys naming where a secret lives: a wrong value may be the secret itself, so it is never echoed. */
const SECRET_NAMING_KEYS = new Set(['credentialEnv', 'webhookSecretEnv', 'credentialFile']);

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (compiled) return compiled;
  // A provider entry's options are the run options of the config file: one definition, referenced.
  compiled = compileSpecSchemas(['config.schema.json', 'expected-failures.schema.json', 'fleet.schema.json'], {
    allErrors: true,
    verbose: true,
    allowUnionTypes: true,
  });
  return compiled;
}

/** A located fleet problem: the JSON pointer, the reason, and the key whose line names it best. */
export interface FleetProblem extends ConfigProblem {
  /** Set when the problem is a key itself (unknown key): its line is the key's, not the parent's. */
  key?: string;
}

function knownKeysAt(pointer: string): readonly string[] {
  if (pointer === '') return FLEET_KEYS;
  if (pointer === '/defaults') return FLEET_RUN_KEYS;
  if (/^\/providers\/\d+$/.test(pointer)) return PROVIDER_KEYS;
  if (/^\/expectedFailures\/\d+$/.test(pointer)) return WAIVER_KEYS;
  return [];
}

/** The last key of a pointer (skipping list indexes): `/providers/2/only/0` → only. */
const keyOf = (pointer: string): string =>
  pointer
    .split('/')
    .filter((s) => s !== '' && !/^\d+$/.test(s))
    .at(-1) ?? '';

function explainFleetError(e: ErrorObject): FleetProblem {
  const params = e.params as Record<string, unknown>;
  const pointer = e.instancePath;
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(params['additionalProperty']);
      return { pointer, key, reason: unknownKeyReason(key, knownKeysAt(pointer)) };
    }
    case 'required':
      return { pointer, reason: `is missing the required key "${String(params['missingProperty'])}"` };
    case 'minItems':
      return { pointer, reason: 'must not be empty' };
    case 'anyOf':
      // The one anyOf of a fleet file: a waiver names its check, its requirement, or both.
      return { pointer, reason: 'names neither check nor requirement; set check (a check id), requirement, or both' };
    case 'format': {
      // e.g. until: 2026-02-30 — read as the pattern it must follow, as the config explainer does.
      const parent = e.parentSchema as Record<string, unknown> | undefined;
      const wanted =
        typeof parent?.['x-expected'] === 'string' ? parent['x-expected'] : `a ${String(params['format'])}`;
      return { pointer, reason: `must be ${wanted} (found ${JSON.stringify(e.data)})` };
    }
    default: {
      const key = keyOf(pointer);
      // The config explainer judges secrecy and wording by the key; give it the key, then put the path back.
      const explained = explainConfigError({ ...e, instancePath: `/${key}` });
      const reason = SECRET_NAMING_KEYS.has(key) ? explained.reason.replace(/\(found .*\)$/, '') : explained.reason;
      return { pointer, reason: reason.trimEnd() };
    }
  }
}

/** Validate a parsed fleet file; every problem explained as key path + reason, one per path. */
export function validateFleet(value: unknown): FleetProblem[] {
  const validate = validator();
  if (validate(value)) return [];
  const seen = new Set<string>();
  // The branches of an anyOf each report what they miss; its own error says it once.
  const errors = (validate.errors ?? []).filter((e) => !e.schemaPath.includes('/anyOf/'));
  return errors.map(explainFleetError).filter((p) => {
    const id = `${p.pointer}|${p.key ?? ''}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
