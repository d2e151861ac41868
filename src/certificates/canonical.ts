import { createHash } from 'node:crypto';

/**
 * Canonical JSON (keys sorted, no spaces) of plain JSON values: two parties that hold the same object derive the
 * same bytes, so a digest of a configuration can be recomputed by anyone (RFC 8785 for the values provcert writes:
 * strings, integers, booleans, null, arrays and objects).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value))
      throw new TypeError('canonical JSON has no non-finite numbers');
    if (value === undefined) throw new TypeError('canonical JSON has no undefined');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export const sha256Hex = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

/** The sha256 of a value's canonical JSON: the digest a certificate names a configuration by. */
export const canonicalDigest = (value: unknown): string => sha256Hex(canonicalJson(value));
