import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { SIGNATURE_HEADER } from '../contract.js';
import type { Contract } from '../spec/contract.js';
import { diagnoseSignature } from './diagnose.js';
import { isJsonContentType, logSafe, readBody, sendError, sendJson, type CoreErrorCode } from './http-io.js';
import { findSignatureHeader, signatureMatches } from './signature.js';
import type { ReceivedWebhook } from './types.js';
import type { NewWebhook, WebhookStore } from './webhook-store.js';

export interface WebhookRouteDeps {
  contract: Contract;
  store: WebhookStore;
  secretFor(slug: string | null): string | undefined;
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  log(line: string): void;
}

const MASKED_HEADER = /signature|hmac|secret|token|key|authorization|cookie/i;
const MAX_SCHEMA_PROBLEMS_SHOWN = 5;
/** WebhookIngestionResponse of an accepted event. */
const SUCCESS = { success: true } as const;

/** Header values that may carry credentials or signatures are masked; the names are kept. */
export function maskHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    out[name] = MASKED_HEADER.test(name) ? `***(${value.length} chars)` : value;
  }
  return out;
}

interface Rejection {
  status: number;
  code: CoreErrorCode;
  message: string;
  /** What the server log and the inbox record say (may be more detailed than the answer). */
  problem?: string;
  closeConnection?: boolean;
}

/** POST /api/v1/webhooks/{slug} and the legacy POST /api/v1/webhooks (slug null). Never throws. */
export async function handleWebhook(req: IncomingMessage, res: ServerResponse, slug: string | null, deps: WebhookRouteDeps): Promise<void> {
  const receivedAt = new Date().toISOString();
  const base: NewWebhook = { receivedAt, slug, headers: maskHeaders(req.headers), rawBody: '', verified: false, answeredStatus: 0, duplicate: false };

  const reject = (r: Rejection, extra: Partial<NewWebhook> = {}): void => {
    sendError(res, r.status, r.code, r.message, r.closeConnection);
    const entry = deps.store.record({ ...base, ...extra, answeredStatus: r.status, problem: r.problem ?? r.message });
    deps.log(describe(entry));
  };

  const secret = deps.secretFor(slug);
  if (secret === undefined) {
    const message = slug === null
      ? 'the legacy route /api/v1/webhooks is not configured on this server; post to /api/v1/webhooks/{providerSlug}'
      : `no provider with slug "${slug}" is known to this server`;
    return reject({ status: 404, code: 'NOT_FOUND', message, closeConnection: true });
  }
  const contentType = req.headers['content-type'];
  if (!isJsonContentType(contentType)) {
    return reject({
      status: 415,
      code: 'INVALID_ARGUMENT',
      message: `Content-Type must be application/json (found ${contentType === undefined ? 'none' : `"${logSafe(contentType, 60)}"`})`,
      closeConnection: true,
    });
  }

  const read = await readBody(req, deps.maxBodyBytes, deps.bodyTimeoutMs);
  if (!read.ok) return reject({ status: read.status, code: 'INVALID_ARGUMENT', message: read.message, closeConnection: true });
  const rawBody = read.body.toString('utf8');
  const withBody: Partial<NewWebhook> = { rawBody };

  const signature = findSignatureHeader(req.headers);
  if (signature) withBody.signatureHeader = signature.name;
  if (!signature || !signatureMatches(secret, read.body, signature.value)) {
    const diagnosis = diagnoseSignature({ rawBody: read.body, secret, headers: req.headers });
    const message = signature
      ? `signature in ${signature.name} does not match the HMAC-SHA256 (lowercase hex) of the raw body`
      : `missing signature: send the lowercase hex HMAC-SHA256 of the raw body in the ${SIGNATURE_HEADER} header` +
        (diagnosis.mistakes.includes('non-canonical-header') ? ` (the header used is not accepted)` : '');
    return reject({ status: 401, code: 'UNAUTHORIZED', message, problem: diagnosis.message }, { ...withBody, ...parsedEvent(rawBody) });
  }

  if (rawBody.trim() === '') {
    return reject({ status: 400, code: 'INVALID_ARGUMENT', message: 'the body is empty; expected a NormalizedWebhookEvent JSON object' }, withBody);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch (e) {
    return reject({ status: 400, code: 'INVALID_ARGUMENT', message: `the body is not valid JSON: ${(e as Error).message}` }, withBody);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return reject({ status: 400, code: 'INVALID_ARGUMENT', message: 'the body must be a JSON object (NormalizedWebhookEvent)' }, withBody);
  }
  const event = parsed as Record<string, unknown>;
  withBody.event = event;
  const validation = deps.contract.validate('NormalizedWebhookEvent', event);
  if (!validation.valid) {
    const shown = validation.problems.slice(0, MAX_SCHEMA_PROBLEMS_SHOWN).map((p) => p.text);
    const more = validation.problems.length - shown.length;
    const message = `the event does not match NormalizedWebhookEvent: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
    return reject({ status: 400, code: 'INVALID_ARGUMENT', message }, withBody);
  }
  const providerSlug = event['providerSlug'];
  const eventId = event['eventId'];
  if (typeof providerSlug !== 'string' || typeof eventId !== 'string') {
    return reject({ status: 400, code: 'INVALID_ARGUMENT', message: 'the event needs string eventId and providerSlug' }, withBody);
  }
  if (slug !== null && providerSlug !== slug) {
    return reject(
      { status: 400, code: 'INVALID_ARGUMENT', message: `providerSlug "${logSafe(providerSlug, 60)}" in the body does not match "${slug}" in the path` },
      withBody,
    );
  }

  let duplicate: boolean;
  try {
    ({ duplicate } = await deps.store.commit({ v: 1, receivedAt, slug, providerSlug, eventId, signatureHeader: signature.name, rawBody }));
  } catch {
    return reject({ status: 500, code: 'INTERNAL_ERROR', message: 'the event could not be recorded durably; retry later' }, { ...withBody, verified: true });
  }
  sendJson(res, 200, SUCCESS);
  const entry = deps.store.record({ ...base, ...withBody, verified: true, answeredStatus: 200, duplicate });
  deps.log(describe(entry));
}

/** The event fields, when a rejected body is still JSON (so the log can say which event failed). */
function parsedEvent(rawBody: string): Partial<NewWebhook> {
  try {
    const v: unknown = JSON.parse(rawBody);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? { event: v as Record<string, unknown> } : {};
  } catch {
    return {};
  }
}

/** The live console line: slug, type, actionId, newStatus, verified or why not. Never secrets. */
export function describe(w: ReceivedWebhook): string {
  const e = w.event ?? {};
  const fields = [
    `webhook ${w.slug ?? '(legacy)'}`,
    logSafe(e['eventType'], 40),
    `actionId=${logSafe(e['actionId'], 40)}`,
    `newStatus=${logSafe(e['newStatus'], 20)}`,
    `→ ${w.answeredStatus}`,
  ];
  const verdict = w.answeredStatus === 200 ? (w.duplicate ? 'verified, duplicate (not applied again)' : 'verified') : `rejected: ${w.problem ?? ''}`;
  return `${fields.join(' ')} ${verdict}`;
}
