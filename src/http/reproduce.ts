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

/**
 * A curl command that sends the same request again. The credential is referenced (environment variable
 * or file), never inlined; for HMAC the signature is computed in the command with openssl.
 */
export function curlFor(exchange: Exchange, authMethod: AuthMethod, source: CredentialSource): string {
  const { method, url, body, auth = 'configured', signedBytes } = exchange.request;
  const lines: string[] = [];
  const hasBody = method !== 'GET' && body !== undefined;
  if (hasBody) lines.push(`BODY=${shellQuote(body)}`);
  const args = [`curl -sS -i -X ${method} ${shellQuote(url)}`];
  for (const [name, value] of Object.entries(exchange.request.headers)) {
    if (isSensitiveHeader(name) || name === 'user-agent' || name === 'content-length' || name === 'accept-encoding')
      continue;
    args.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  const secret = auth === 'credential' ? shellQuote(WRONG_CREDENTIAL_PLACEHOLDER) : credentialExpr(source);
  if (auth !== 'none' && auth !== 'headers') {
    if (authMethod === 'HMAC_SIGNATURE') {
      const signed = auth === 'sign-other-bytes' ? shellQuote(signedBytes ?? '') : hasBody ? '"$BODY"' : "''";
      args.push(
        `-H "${SIGNATURE_HEADER}: $(printf '%s' ${signed} | openssl dgst -sha256 -hmac ${secret} | sed 's/^.* //')"`,
      );
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
