import { API_KEY_HEADER, type AuthMethod, SIGNATURE_HEADER } from '../model/contract-constants.js';
import type { Exchange } from '../model/exchange.js';
import { isSensitiveHeader } from '../util/redact.js';

export type CredentialSource = { kind: 'env'; name: string } | { kind: 'file'; path: string };

/** Single-quote for POSIX shells. */
const shellQuote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

/** Placeholder used when the failing request carried a deliberately wrong credential. */
const WRONG_CREDENTIAL_PLACEHOLDER = 'provcert-wrong-credential';

function credentialExpr(source: CredentialSource): string {
  return source.kind === 'env' ? `"$${source.name}"` : `"$(cat ${shellQuote(source.path)})"`;
}

/** A shell filter that makes the same near-miss change as the client's `nearMiss` (auth.ts). */
const NEAR_MISS_FILTERS: Record<string, string> = {
  'drop-last': "sed 's/.$//'",
  'first-half': "awk '{print substr($0, 1, int((length($0) + 1) / 2))}'",
  append: "sed 's/$/0/'",
  'swap-case': "tr 'a-zA-Z' 'A-Za-z'",
  'nbsp-around': "sed 's/^/\\xa0/; s/$/\\xa0/'",
  'space-before': "sed 's/^/ /'",
  'upper-case': "tr 'a-z' 'A-Z'",
  'scheme-replaced': "sed 's/^[^ ]*/Basic/'",
  'word-before': "sed 's/^/Token /'",
};

/** `expr` (a quoted shell word) with a near-miss change applied, as one quoted shell word. */
const changed = (expr: string, change: string): string =>
  `"$(printf '%s' ${expr} | ${NEAR_MISS_FILTERS[change] ?? 'cat'})"`;

/**
 * A curl command that sends the same request again. The credential is referenced (environment variable
 * or file), never inlined; for HMAC the signature is computed in the command with openssl.
 */
export function curlFor(exchange: Exchange, authMethod: AuthMethod, source: CredentialSource): string {
  const { method, url, body, auth = 'configured', signedBytes, nearMiss } = exchange.request;
  const lines: string[] = [];
  const hasBody = method !== 'GET' && body !== undefined;
  if (hasBody) lines.push(`BODY=${shellQuote(body)}`);
  const args = [`curl -sS -i -X ${method} ${shellQuote(url)}`];
  for (const [name, value] of Object.entries(exchange.request.headers)) {
    if (isSensitiveHeader(name) || name === 'user-agent' || name === 'content-length' || name === 'accept-encoding')
      continue;
    args.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  const configured = credentialExpr(source);
  const secret =
    auth === 'credential'
      ? shellQuote(WRONG_CREDENTIAL_PLACEHOLDER)
      : nearMiss?.target === 'credential'
        ? changed(configured, nearMiss.change)
        : configured;
  if (auth === 'other-scheme') {
    const bare = configured.replace(/^"|"$/g, '');
    args.push(`-H "${authMethod === 'API_KEY' ? `authorization: Bearer ${bare}` : `${API_KEY_HEADER}: ${bare}`}"`);
  } else if (auth !== 'none' && auth !== 'headers') {
    if (authMethod === 'HMAC_SIGNATURE') {
      const signed = auth === 'sign-other-bytes' ? shellQuote(signedBytes ?? '') : hasBody ? '"$BODY"' : "''";
      const signature = `printf '%s' ${signed} | openssl dgst -sha256 -hmac ${secret} | sed 's/^.* //'`;
      const filter = nearMiss?.target === 'signature' ? ` | ${NEAR_MISS_FILTERS[nearMiss.change] ?? 'cat'}` : '';
      args.push(`-H "${SIGNATURE_HEADER}: $(${signature}${filter})"`);
    } else if (authMethod === 'BEARER_TOKEN' && nearMiss?.target === 'signature') {
      // The header value itself changed (its scheme word): the filter runs over "Bearer <token>".
      const value = `"Bearer ${secret.replace(/^"|"$/g, '').replace(/^'|'$/g, '')}"`;
      args.push(`-H "authorization: ${changed(value, nearMiss.change).replace(/^"|"$/g, '')}"`);
    } else if (authMethod === 'BEARER_TOKEN') {
      args.push(`-H "authorization: Bearer ${secret.replace(/^"|"$/g, '').replace(/^'|'$/g, '')}"`);
    } else {
      args.push(`-H "${API_KEY_HEADER}: ${secret.replace(/^"|"$/g, '').replace(/^'|'$/g, '')}"`);
    }
  }
  if (hasBody) args.push(`--data-binary "$BODY"`);
  lines.push(args.join(' \\\n  '));
  return lines.join('\n');
}
