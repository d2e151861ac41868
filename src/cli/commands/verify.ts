import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { publicKeyFromPem } from '../../certificates/keys.js';
import { shippedDigests } from '../../certificates/shipped.js';
import { trustedKey, trustedKeysFromJwks } from '../../certificates/trusted-keys.js';
import { type TrustedKey, verifyCertificateWith } from '../../certificates/verify.js';
import { requiredChecksFor } from '../../checks/framework/registry.js';
import { loadContract } from '../../contract/load.js';
import { UsageError } from '../../model/errors.js';
import type { CommandContext } from '../command.js';
import { EXIT } from '../io.js';

export interface VerifyFlags {
  jwks?: string;
  key?: string;
  maxAge?: string;
  configDigest?: string;
  allowWaiver?: string;
}

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30d`, `12h`, `90m`, `3600s` or plain seconds. */
export function parseMaxAge(text: string): number {
  const m = /^(\d+)([smhd]?)$/.exec(text.trim());
  if (!m || Number(m[1]) === 0)
    throw new UsageError(`--max-age must be a positive duration like 30d, 12h, 90m or 3600s (got "${text}")`);
  return Number(m[1]) * (UNITS[m[2] || 's'] ?? 1_000);
}

async function readText(path: string, what: string, cwd: string): Promise<string> {
  try {
    return await readFile(resolve(cwd, path), 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${what} ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`${what} is not JSON`);
  }
}

/** The key set at a URL (serve's /api/v1/.well-known/jwks.json) or in a file. */
async function readJwks(source: string, cwd: string): Promise<unknown> {
  if (!/^https?:\/\//i.test(source)) return parseJson(await readText(source, '--jwks', cwd), `--jwks ${source}`);
  let res: Response;
  try {
    res = await fetch(source, { signal: AbortSignal.timeout(10_000), redirect: 'error' });
  } catch (e) {
    throw new UsageError(`--jwks ${source} could not be fetched (${(e as Error).message})`);
  }
  if (!res.ok) throw new UsageError(`--jwks ${source} answered HTTP ${res.status}`);
  return parseJson(await res.text(), `--jwks ${source}`);
}

async function trustedKeys(flags: VerifyFlags, cwd: string): Promise<TrustedKey[]> {
  if ((flags.jwks === undefined) === (flags.key === undefined))
    throw new UsageError('name the keys to trust: --jwks URL|FILE or --key PEMFILE (one of them)');
  try {
    if (flags.jwks !== undefined) return trustedKeysFromJwks(await readJwks(flags.jwks, cwd));
    return [trustedKey(publicKeyFromPem(await readText(String(flags.key), '--key', cwd)))];
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(
      `${flags.jwks !== undefined ? `--jwks ${flags.jwks}` : `--key ${flags.key}`}: ${(e as Error).message}`,
    );
  }
}

/**
 * `provcert verify CERT`: the envelope against the keys the person trusts, then what the shipped contract and
 * catalog require of the certificate. Exit 0 valid, 1 refused (naming the first reason), 2 unusable input.
 */
export async function execute({ io }: CommandContext, file: string, flags: VerifyFlags): Promise<number> {
  const maxAgeMs = flags.maxAge !== undefined ? parseMaxAge(flags.maxAge) : undefined;
  if (flags.configDigest !== undefined && !/^[0-9a-f]{64}$/.test(flags.configDigest))
    throw new UsageError('--config-digest must be a sha256 in lowercase hex (64 characters)');
  const keys = await trustedKeys(flags, io.cwd);
  const certificate = parseJson(await readText(file, 'the certificate', io.cwd), `the certificate ${file}`);
  const contract = await loadContract();
  const verdict = verifyCertificateWith(certificate, {
    keys,
    shipped: shippedDigests(),
    requiredChecks: (config) => requiredChecksFor(contract, config),
    now: new Date(),
    ...(maxAgeMs !== undefined ? { maxAgeMs } : {}),
    ...(flags.configDigest !== undefined ? { configDigest: flags.configDigest } : {}),
    ...(flags.allowWaiver !== undefined
      ? {
          allowWaivers: flags.allowWaiver
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        }
      : {}),
  });
  if (!verdict.valid) {
    io.stdout.write(`certificate refused: ${verdict.reason}\n`);
    return EXIT.failed;
  }
  io.stdout.write(
    `certificate valid: ${verdict.subject.name} ${verdict.result}, configuration sha256 ${verdict.subject.sha256}, issued ${verdict.issuedAt}, signed by key ${verdict.keyid}\n`,
  );
  return EXIT.ok;
}
