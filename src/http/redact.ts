import { API_KEY_HEADER, COMPAT_SIGNATURE_HEADER, SIGNATURE_HEADER } from '../contract.js';

/** Headers whose values are credentials or derived from them: always masked in evidence. */
export const SENSITIVE_HEADERS = new Set([
  'authorization', API_KEY_HEADER, SIGNATURE_HEADER, COMPAT_SIGNATURE_HEADER, 'x-signature',
  'cookie', 'set-cookie', 'proxy-authorization',
]);

export function maskHeaderValue(name: string, value: string): string {
  if (!SENSITIVE_HEADERS.has(name.toLowerCase())) return value;
  const scheme = /^(Bearer|Basic)\s+/i.exec(value)?.[0] ?? '';
  return `${scheme}****`;
}

export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = maskHeaderValue(name, value);
  return out;
}

/**
 * Second line of defence: replaces every known secret value wherever it appears (bodies echoed by a
 * provider, error texts). Secrets shorter than 4 characters are not searched for (they would mask noise).
 */
export class Redactor {
  private readonly secrets: string[];
  constructor(secrets: readonly (string | undefined)[]) {
    this.secrets = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.trim().length >= 4))]
      .flatMap((s) => (s === s.trim() ? [s] : [s, s.trim()]))
      .sort((a, b) => b.length - a.length);
  }

  text(value: string): string {
    let out = value;
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join('****');
    return out;
  }
}
