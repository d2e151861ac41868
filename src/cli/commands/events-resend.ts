import { request } from 'undici';
import { SIGNATURE_HEADER } from '../../model/contract-constants.js';
import { UsageError } from '../../model/errors.js';
import { hmacHex } from '../../util/hmac.js';
import { Redactor } from '../../util/redact.js';
import { sanitizeTerminalText } from '../../util/terminal.js';
import type { CommandContext } from '../command.js';
import { adminToken, apiBase, coreGet, coreMessage, unreachable } from '../events/core-client.js';
import { EXIT } from '../io.js';
import { secretFromEnv } from '../options.js';
import { webhookAddress } from './send-event.js';

const TIMEOUT_MS = 10_000;

export interface ResendOptions {
  slug: string;
  to: string;
  core?: string;
  adminTokenEnv?: string;
  secretEnv?: string;
}

const rawBodyOf = (b: unknown): string | undefined => {
  const raw = typeof b === 'object' && b !== null ? (b as { rawBody?: unknown }).rawBody : undefined;
  return typeof raw === 'string' ? raw : undefined;
};

/**
 * `provcert events resend EVENT_ID`: the stored bytes of an accepted event, read from the core
 * (GET …/events/{eventId}), posted again to `--to`, signed afresh with the webhook secret from the environment
 * (the stored signature is never kept in clear). Exit 0 on a 2xx answer, 1 otherwise.
 */
export async function execute({ io, signal }: CommandContext, eventId: string, opts: ResendOptions): Promise<number> {
  const token = adminToken(io.env, opts.adminTokenEnv);
  const secret = secretFromEnv(io.env, opts.secretEnv);
  const base = apiBase(opts.core);
  const target = webhookAddress(opts.to, opts.slug);
  const redactor = new Redactor([token, secret]);
  const say = (stream: NodeJS.WritableStream, text: string): void => {
    stream.write(`${sanitizeTerminalText(redactor.text(text))}\n`);
  };
  let rawBody: string | undefined;
  try {
    const url = `${base}/providers/${encodeURIComponent(opts.slug)}/events/${encodeURIComponent(eventId)}`;
    const answer = await coreGet(url, token, signal);
    const line = (text: string): string => sanitizeTerminalText(redactor.text(text), { oneLine: true });
    if (answer.status === 401)
      throw new UsageError(line(`the core refused the operator token: ${coreMessage(answer)}`));
    if (answer.status === 404) throw new UsageError(line(`not found on the core: ${coreMessage(answer)}`));
    rawBody = answer.status === 200 ? rawBodyOf(answer.body) : undefined;
    if (rawBody === undefined) {
      say(io.stderr, `provcert: the core answered ${coreMessage(answer)}`);
      return EXIT.failed;
    }
  } catch (e) {
    if (e instanceof UsageError) throw e;
    say(io.stderr, `provcert: ${unreachable(e, base)}`);
    return EXIT.failed;
  }
  say(io.stdout, `POST ${target}\n${rawBody}`);
  try {
    const res = await request(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: hmacHex(secret, rawBody) },
      body: rawBody,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
      signal,
    });
    const text = await res.body.text();
    say(io.stdout, `→ ${res.statusCode} ${text}`);
    return res.statusCode >= 200 && res.statusCode < 300 ? EXIT.ok : EXIT.failed;
  } catch (e) {
    const code = (e as { code?: string }).code ?? (e as Error).name;
    say(io.stderr, `provcert: could not post to ${target}: ${code}`);
    return EXIT.failed;
  }
}
