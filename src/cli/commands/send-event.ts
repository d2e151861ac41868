import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { ACTION_STATUSES, SIGNATURE_HEADER } from '../../model/contract-constants.js';
import { UsageError } from '../../model/errors.js';
import { hmacHex as signHex } from '../../util/hmac.js';
import type { CommandContext } from '../command.js';
import { EXIT } from '../io.js';
import { secretFromEnv } from '../options.js';

const TIMEOUT_MS = 10_000;

/** --to may be the core address, its /api/v1, or the full webhook address. */
export function webhookAddress(to: string, slug: string): string {
  let url: URL;
  try {
    url = new URL(to);
  } catch {
    throw new UsageError(`--to "${to}" is not a URL (e.g. http://127.0.0.1:8787)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--to must be http(s), got ${url.protocol}`);
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/webhooks(\/[^/]+)?$/.test(path)) return url.toString();
  url.pathname = `${path.endsWith('/api/v1') ? path : `${path}/api/v1`}/webhooks/${encodeURIComponent(slug)}`;
  return url.toString();
}

export async function execute(
  { io }: CommandContext,
  opts: { to: string; slug: string; status: string; actionId: string; secretEnv?: string },
): Promise<number> {
  const status = opts.status.toUpperCase();
  if (!(ACTION_STATUSES as readonly string[]).includes(status))
    throw new UsageError(`--status must be one of ${ACTION_STATUSES.join(', ')} (got "${opts.status}")`);
  const secret = secretFromEnv(io.env, opts.secretEnv);
  const target = webhookAddress(opts.to, opts.slug);
  const body = JSON.stringify({
    eventId: `evt_${randomUUID()}`,
    eventType: 'action.status_updated',
    providerSlug: opts.slug,
    timestamp: new Date().toISOString(),
    actionId: opts.actionId,
    newStatus: status,
  });
  io.stdout.write(`POST ${target}\n${body}\n`);
  let answer: { statusCode: number; text: string };
  try {
    const res = await request(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signHex(secret, body) },
      body,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    answer = { statusCode: res.statusCode, text: await res.body.text() };
  } catch (e) {
    // Not delivered is a failed send (exit 1), as the help says; exit 2 stays for unusable input.
    const code = (e as { code?: string }).code ?? (e as Error).name;
    io.stderr.write(
      `provcert: could not post to ${target}: ${code === 'ECONNREFUSED' ? 'connection refused (is provcert serve running?)' : code}\n`,
    );
    return EXIT.failed;
  }
  io.stdout.write(`→ ${answer.statusCode} ${answer.text}\n`);
  return answer.statusCode >= 200 && answer.statusCode < 300 ? EXIT.ok : EXIT.failed;
}
