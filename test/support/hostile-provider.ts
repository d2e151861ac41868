import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Every way a provider can echo a secret back. Base64 is given at the three alignments (the secret's
 * bytes at offset 0, 1, 2 mod 3 of a longer encoded text), each as a whole encoded string.
 */
export function secretEncodings(secret: string): Record<string, string> {
  const base64 = (prefix: string): string => Buffer.from(prefix + secret, 'utf8').toString('base64');
  const hex = Buffer.from(secret, 'utf8').toString('hex');
  return {
    raw: secret,
    'JSON-escaped': JSON.stringify(secret).slice(1, -1),
    'URL-encoded': encodeURIComponent(secret),
    'form-encoded': new URLSearchParams({ v: secret }).toString().slice(2),
    'base64 offset 0': base64(''),
    'base64 offset 1': base64('u'),
    'base64 offset 2': base64('u:'),
    'base64url offset 1': base64('u').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
    'hex lowercase': hex,
    'hex uppercase': hex.toUpperCase(),
    'long substring': secret.slice(1, 1 + Math.ceil(secret.length * 0.6)),
    ...normalizedEncodings(secret),
    ...pieceEncodings(secret),
  };
}

/** `secret` cut into pieces of `length` characters, each starting `step` after the last: they overlap when step < length. */
export const overlappingPieces = (secret: string, length: number, step: number): string[] => {
  const pieces: string[] = [];
  for (let at = 0; at < secret.length; at += step) pieces.push(secret.slice(at, at + length));
  return pieces;
};

/**
 * Issue 32: echoes that go around a masker judging each piece by its own length, or decoding once. Overlapping
 * pieces each shorter than half the secret rebuild it when laid side by side; iterated encodings hide it from one
 * round of decoding.
 */
export function pieceEncodings(secret: string): Record<string, string> {
  const twice = (s: string): string => encodeURIComponent(encodeURIComponent(s));
  const fifteen = overlappingPieces(secret, 15, 5);
  const underHalf = overlappingPieces(secret, Math.ceil(secret.length / 2) - 1, 3);
  const uEscaped = (s: string): string => every(s, (u) => `\\u${code(u, 16, 4)}`);
  return {
    'double %-encoded': twice(secret),
    'triple %-encoded': encodeURIComponent(twice(secret)),
    'double %-encoded on every byte': [...Buffer.from(secret)]
      .map((b) => `%25${b.toString(16).padStart(2, '0')}`)
      .join(''),
    'overlapping pieces of 15 characters': fifteen.join(' | '),
    'overlapping pieces one short of half': underHalf.join(' '),
    'overlapping pieces, each double %-encoded': fifteen.map(twice).join(','),
    'overlapping pieces, each \\u-escaped': fifteen.map(uEscaped).join(' '),
    'overlapping pieces in hex': fifteen.map((p) => Buffer.from(p).toString('hex')).join(' '),
  };
}

/**
 * The share of `secret` (0 to 1) a text shows, in stretches a reader could lay side by side: escapes undone
 * repeatedly (%XX, \\uXXXX, HTML numeric entities), then any stretch of 6 or more of the secret's letters and digits
 * that holds a digit (a stretch of letters alone reads like words), and any 12 or more hex digits of it. Counted
 * independently of the masker: a report that shows half the secret's characters lets it be rebuilt.
 */
export function shareShown(text: string, secret: string): number {
  let decoded = text;
  for (let round = 0; round < 8; round++) {
    const next = decoded
      .replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/\\+u([0-9a-f]{4})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/&#x([0-9a-f]+);?/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/&#(\d+);?/g, (_m, d: string) => String.fromCharCode(Number(d)));
    if (next === decoded) break;
    decoded = next;
  }
  const plain = decoded.toLowerCase().replace(/[^a-z0-9]/g, '');
  const target = secret.toLowerCase().replace(/[^a-z0-9]/g, '');
  const covered = new Set<number>();
  const stretches = (source: string, within: string, min: number, mark: (from: number, to: number) => void): void => {
    for (let i = 0; i + min <= source.length; i++) {
      let k = min;
      while (i + k <= source.length && within.includes(source.slice(i, i + k))) k++;
      k--;
      if (k >= min && /[0-9]/.test(source.slice(i, i + k))) mark(i, i + k);
    }
  };
  stretches(target, plain, 6, (from, to) => {
    for (let p = from; p < to; p++) covered.add(p);
  });
  // Hex counts bytes of the secret as written: the larger of the two is what the text shows.
  const bytes = Buffer.from(secret);
  const hexCovered = new Set<number>();
  stretches(bytes.toString('hex'), plain, 12, (from, to) => {
    for (let p = from >> 1; p < to >> 1; p++) hexCovered.add(p);
  });
  return Math.max(covered.size / target.length, hexCovered.size / bytes.length);
}

const every = (secret: string, encode: (unit: string) => string): string => [...secret].map(encode).join('');
const code = (unit: string, radix: number, pad = 0): string =>
  (unit.codePointAt(0) ?? 0).toString(radix).padStart(pad, '0');

/** Encodings an echoing provider can choose that only a masker which normalizes before it matches catches. */
export function normalizedEncodings(secret: string): Record<string, string> {
  const bytes = Buffer.from(secret, 'utf8');
  const hexPairs = [...bytes].map((b) => b.toString(16).padStart(2, '0'));
  const wrap = (text: string, width: number, eol: string): string =>
    text.replace(new RegExp(`(.{${width}})`, 'g'), `$1${eol}`);
  const half = Math.ceil(secret.length / 2);
  return {
    'JSON \\u-escape of every character': every(secret, (u) => `\\u${code(u, 16, 4)}`),
    'JSON \\u-escape uppercase hex': every(secret, (u) => `\\u${code(u, 16, 4).toUpperCase()}`),
    '%XX on every byte': hexPairs.map((h) => `%${h.toUpperCase()}`).join(''),
    '%xx lowercase on every byte': hexPairs.map((h) => `%${h}`).join(''),
    'HTML decimal entities': every(secret, (u) => `&#${code(u, 10)};`),
    'HTML hex entities': every(secret, (u) => `&#x${code(u, 16)};`),
    'base64 wrapped across lines': wrap(bytes.toString('base64'), 12, '\r\n'),
    'secret split across lines': `${secret.slice(0, half)}\n${secret.slice(half)}`,
    'hex with colons': hexPairs.join(':'),
    'hex with spaces, uppercase': hexPairs.join(' ').toUpperCase(),
    'zero-width characters interleaved': every(secret, (u) => `${u}\u200b`),
    'upper-cased': secret.toUpperCase(),
  };
}

/** Header values carry no line breaks or characters beyond Latin-1. */
const headerSafe = (value: string): boolean => /^[\t\x20-\x7e\x80-\xff]*$/.test(value);

export interface HostileProvider {
  url: string;
  close(): Promise<void>;
}

/**
 * A provider that echoes every secret it is told, in every encoding, everywhere it can: response headers
 * (a custom header, Set-Cookie, Content-Type), error `code` and `message`, values that fail the schema
 * (so schema messages quote them) and plain bodies. A real node:http server on loopback.
 */
export async function startHostileProvider(secrets: readonly string[]): Promise<HostileProvider> {
  const forms = secrets.flatMap((s) => Object.values(secretEncodings(s)));
  const all = forms.join(' | ');
  const headerForms = forms.filter(headerSafe);

  const echoHeaders = (res: ServerResponse, contentType: string): void => {
    res.setHeader('content-type', contentType);
    res.setHeader('x-echo', headerForms.join(' | '));
    res.setHeader('x-provider-api-key', secrets[0] ?? '');
    res.setHeader(
      'set-cookie',
      secrets.map((s, i) => `session${i}=${encodeURIComponent(s)}; Path=/`),
    );
    headerForms.forEach((form, i) => res.setHeader(`x-echo-${i}`, form));
  };

  const json = (res: ServerResponse, status: number, body: unknown): void => {
    echoHeaders(res, `application/json; echo="${secrets[0] ?? ''}"`);
    res.writeHead(status).end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    switch (path) {
      case '/provider-info':
        // Wrong types everywhere: schema messages quote what they found.
        return json(res, 200, {
          slug: forms,
          name: 42,
          providerType: all,
          capabilities: forms,
          manifest: { certification: { safeTestEnvironment: all } },
        });
      case '/health':
        // Not JSON: messages name the content type, which carries the secret.
        echoHeaders(res, `text/plain; charset=${secrets[0] ?? ''}`);
        return res.writeHead(200).end(`up ${all}`);
      case '/catalog':
      case '/locations':
      case '/search':
        return json(res, 200, {
          offerings: forms.map((form) => ({ id: form, title: form, basePrice: form, currency: form })),
          locations: forms,
          results: forms,
        });
      default:
        return json(res, 401, {
          code: secrets[0] ?? 'UNAUTHORIZED',
          message: `credential ${all} rejected`,
          details: forms,
        });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
