import { isIP } from 'node:net';
import { checkServerIdentity, connect, type PeerCertificate } from 'node:tls';
import type { SpellSetting } from '../model/setting-speller.js';
import { type Diagnosis, diagnosis } from './types.js';

const DAY_MS = 86_400_000;
const SOON_DAYS = 14;

export interface TlsResult {
  diagnosis: Diagnosis;
  /** False when the HTTP client (which verifies certificates) would refuse the connection. */
  trusted: boolean;
}

const CHAIN_PROBLEMS: Record<string, { detail: string; fix: string }> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: {
    detail: 'the certificate is self-signed, so no client trusts it',
    fix: "use a certificate from a public CA (e.g. Let's Encrypt)",
  },
  SELF_SIGNED_CERT_IN_CHAIN: {
    detail: 'the chain ends in a self-signed certificate that is not a public root',
    fix: "use a certificate from a public CA (e.g. Let's Encrypt)",
  },
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: {
    detail: 'the certificate chain is incomplete or from an untrusted CA',
    fix: 'serve the full chain (the certificate plus its intermediates)',
  },
  UNABLE_TO_GET_ISSUER_CERT: {
    detail: 'the issuer of the certificate is unknown',
    fix: 'serve the full chain (the certificate plus its intermediates)',
  },
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: {
    detail: 'the issuer of the certificate is not a trusted CA',
    fix: 'use a certificate from a public CA, and serve the full chain',
  },
};

const namesOf = (cert: PeerCertificate): string => {
  const san = cert.subjectaltname?.replace(/DNS:|IP Address:/g, '').trim();
  const cn = cert.subject?.CN;
  return san || (typeof cn === 'string' ? cn : 'no names');
};

/** What is wrong with a presented certificate, judged like a strict client would. */
export function judgeCertificate(
  hostname: string,
  cert: PeerCertificate,
  authorizationError: string | undefined,
  now: Date,
): { problems: string[]; fixes: string[]; expiresInDays: number } {
  const problems: string[] = [];
  const fixes: string[] = [];
  const from = new Date(cert.valid_from);
  const to = new Date(cert.valid_to);
  if (now < from) {
    problems.push(`the certificate is not valid before ${from.toISOString()}`);
    fixes.push('check the server clock and the certificate dates');
  }
  if (now > to) {
    problems.push(`the certificate expired on ${to.toISOString()}`);
    fixes.push('renew the certificate');
  }
  if (checkServerIdentity(hostname, cert) !== undefined) {
    problems.push(`the certificate is for ${namesOf(cert)}, not ${hostname}`);
    fixes.push(`use a certificate whose names include ${hostname}`);
  }
  const chain = authorizationError ? CHAIN_PROBLEMS[authorizationError] : undefined;
  if (chain) {
    problems.push(chain.detail);
    fixes.push(chain.fix);
  } else if (
    authorizationError &&
    !['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'ERR_TLS_CERT_ALTNAME_INVALID'].includes(authorizationError)
  ) {
    problems.push(`the certificate is not trusted (${authorizationError})`);
    fixes.push('use a certificate from a public CA and serve the full chain');
  }
  return { problems, fixes, expiresInDays: Math.floor((to.getTime() - now.getTime()) / DAY_MS) };
}

/** Handshake with the server (not verifying, so every problem can be named), then judge the certificate. */
export function tlsProbe(
  hostname: string,
  address: string,
  port: number,
  timeoutMs: number,
  now: () => Date,
  spell: SpellSetting,
): Promise<TlsResult> {
  const host = hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({
      host: address,
      port,
      rejectUnauthorized: false,
      ...(isIP(host) ? {} : { servername: host }),
    });
    const done = (result: TlsResult): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => {
      done({
        diagnosis: diagnosis(
          'tls',
          'fail',
          `no TLS handshake with ${host}:${port} within ${timeoutMs} ms`,
          `check that the port serves HTTPS, or raise ${spell('timeout')}`,
        ),
        trusted: false,
      });
    }, timeoutMs);
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      const authError = socket.authorizationError as unknown;
      const code =
        authError === undefined || authError === null
          ? undefined
          : typeof authError === 'string'
            ? authError
            : String((authError as { code?: unknown }).code ?? authError);
      const judged = judgeCertificate(host, cert, code, now());
      if (judged.problems.length > 0) {
        done({
          diagnosis: diagnosis(
            'tls',
            'fail',
            `${judged.problems.join('; ')}: the hosted service (and provcert) will refuse the connection`,
            [...new Set(judged.fixes)].join('; '),
          ),
          trusted: false,
        });
      } else if (judged.expiresInDays < SOON_DAYS) {
        done({
          diagnosis: diagnosis(
            'tls',
            'warn',
            `trusted certificate for ${namesOf(cert)}, but it expires in ${judged.expiresInDays} days (${new Date(cert.valid_to).toISOString()})`,
            'renew the certificate soon',
          ),
          trusted: true,
        });
      } else {
        done({
          diagnosis: diagnosis(
            'tls',
            'ok',
            `trusted certificate for ${namesOf(cert)}, valid until ${new Date(cert.valid_to).toISOString()}`,
          ),
          trusted: true,
        });
      }
    });
    socket.once('error', (e: NodeJS.ErrnoException) => {
      const code = e.code ?? 'error';
      done({
        diagnosis: diagnosis(
          'tls',
          'fail',
          `the TLS handshake with ${host}:${port} failed (${code}): the server does not speak HTTPS on this port`,
          `if the backend serves plain HTTP there, the base URL should be http://${host}:${port} (local tests only); otherwise fix the server's TLS set-up`,
        ),
        trusted: false,
      });
    });
  });
}
