import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { SIGNATURE_HEADER } from '../model/contract-constants.js';
import type { ReceivedWebhook } from '../model/webhooks.js';
import type { Contract } from '../spec/contract.js';
import { hmacDigest } from '../util/hmac.js';
import { isSensitiveHeader, MASK } from '../util/redact.js';
import { readSignedBody } from './body-reader.js';
import { diagnoseSignature } from './diagnose.js';
import { type CoreErrorCode, dropUnreadBody, isJsonContentType, logSafe, sendError, sendJson } from './http-io.js';
import { type InflightBudget, type IngestLimits, RETRY_AFTER_S } from './limits.js';
import type { RateGate } from './rate-gate.js';
import { digestMatches, findSignatureHeader } from './signature.js';
import type { NewWebhook, WebhookStore } from './webhook-store.js';

export interface WebhookRouteDeps {
  contract: Contract;
  store: WebhookStore;
  /** The webhook secret of the provider with this slug; undefined = unknown provider. */
  secretFor(slug: string): string | undefined;
  /** Whether the slugless legacy route is served (its events are verified with the named provider's secret). */
  legacyRoute: boolean;
  limits: IngestLimits;
  budget: InflightBudget;
  /** Bounds the costly signature diagnosis under a flood of bad signatures. */
  diagnoses: RateGate;
  /** Bounds the console lines of rejected requests; the rest are counted in one line. */
  rejectionLines: RateGate;
  log(line: string): void;
}

const MAX_SCHEMA_PROBLEMS_SHOWN = 5;
/** Bodies above this are not diagnosed (each diagnosis hashes dozens of variants). */
const DIAGNOSE_MAX_BYTES = 16 * 1024;
/** What a rejected request keeps in memory of its body and event. */
const REJECTED_BODY_KEPT = 1024;
const EVENT_SUMMARY_FIELDS = ['eventId', 'eventType', 'providerSlug', 'timestamp', 'actionId', 'newStatus'];
/** WebhookIngestionResponse of an accepted event. */
const SUCCESS = { success: true } as const;

/** Header values that may carry credentials or signatures are masked (the one masker's rule); the names are kept. */
export function maskHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    out[name] = isSensitiveHeader(name) ? MASK : logSafe(value, 200);
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
  headers?: Record<string, string>;
}

/** POST /api/v1/webhooks/{slug} and the legacy POST /api/v1/webhooks (slug null). Never throws. */
export async function handleWebhook(
  req: IncomingMessage,
  res: ServerResponse,
  slug: string | null,
  deps: WebhookRouteDeps,
): Promise<void> {
  const receivedAt = new Date().toISOString();
  const base: NewWebhook = {
    receivedAt,
    slug,
    headers: maskHeaders(req.headers),
    rawBody: '',
    verified: false,
    answeredStatus: 0,
    duplicate: false,
  };

  const reject = (r: Rejection, extra: Partial<NewWebhook> = {}): void => {
    sendError(res, r.status, r.code, r.message, r.closeConnection, r.headers);
    if (r.closeConnection) dropUnreadBody(req, res);
    const kept = {
      ...extra,
      rawBody: (extra.rawBody ?? '').slice(0, REJECTED_BODY_KEPT),
      ...(extra.event ? { event: summary(extra.event) } : {}),
    };
    const entry = deps.store.record({ ...base, ...kept, answeredStatus: r.status, problem: r.problem ?? r.message });
    const gate = deps.rejectionLines.pass();
    if (gate.refusedBefore > 0)
      deps.log(`… ${gate.refusedBefore} more rejected webhook requests in that second were not logged`);
    if (gate.ok) deps.log(describe(entry));
  };

  // Unknown slugs are refused before a byte of the body is read.
  const pathSecret = slug === null ? undefined : deps.secretFor(slug);
  if (slug !== null && pathSecret === undefined) {
    return reject({
      status: 404,
      code: 'NOT_FOUND',
      message: `no provider with slug "${logSafe(slug, 64)}" is known to this server`,
      closeConnection: true,
    });
  }
  if (slug === null && !deps.legacyRoute) {
    return reject({
      status: 404,
      code: 'NOT_FOUND',
      message:
        'the legacy route /api/v1/webhooks is not configured on this server; post to /api/v1/webhooks/{providerSlug}',
      closeConnection: true,
    });
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

  const reading = readSignedBody(req, pathSecret, {
    maxBytes: deps.limits.maxBodyBytes,
    timeoutMs: deps.limits.bodyTimeoutMs,
    budget: deps.budget,
  });
  try {
    const read = await reading.outcome;
    if (!read.ok) {
      const busy = read.status === 503;
      return reject({
        status: read.status,
        code: busy ? 'INTERNAL_ERROR' : 'INVALID_ARGUMENT',
        message: read.message,
        closeConnection: true,
        ...(busy ? { headers: { 'retry-after': String(RETRY_AFTER_S) } } : {}),
      });
    }
    await accept(read.body, read.digest, pathSecret);
  } finally {
    reading.release();
  }

  async function accept(
    body: Buffer,
    streamedDigest: Buffer | undefined,
    knownSecret: string | undefined,
  ): Promise<void> {
    const rawBody = body.toString('utf8');
    const withBody: Partial<NewWebhook> = { rawBody };
    const signature = findSignatureHeader(req.headers);
    if (signature) withBody.signatureHeader = signature.name;

    // The legacy route learns the provider from the body; its secret, never the shared one, verifies it.
    let secret = knownSecret;
    let digest = streamedDigest;
    if (secret === undefined) {
      const named = namedProvider(rawBody);
      if (named === undefined) {
        return reject(
          {
            status: 400,
            code: 'INVALID_ARGUMENT',
            message:
              'the legacy route needs a JSON event with a string providerSlug; post to /api/v1/webhooks/{providerSlug}',
          },
          withBody,
        );
      }
      secret = deps.secretFor(named);
      if (secret === undefined) {
        return reject(
          {
            status: 404,
            code: 'NOT_FOUND',
            message: `no provider with slug "${logSafe(named, 64)}" is known to this server`,
          },
          { ...withBody, ...parsedEvent(rawBody) },
        );
      }
      digest = hmacDigest(secret, body);
    }

    if (!signature || digest === undefined || !digestMatches(digest, signature.value)) {
      const message = signature
        ? `signature in ${signature.name} does not match the HMAC-SHA256 (lowercase hex) of the raw body`
        : `missing signature: send the lowercase hex HMAC-SHA256 of the raw body in the ${SIGNATURE_HEADER} header`;
      const problem = explain(body, secret);
      const hint =
        problem.mistakes.includes('non-canonical-header') && !signature ? ' (the header used is not accepted)' : '';
      return reject(
        { status: 401, code: 'UNAUTHORIZED', message: message + hint, problem: problem.message },
        { ...withBody, ...parsedEvent(rawBody) },
      );
    }

    if (rawBody.trim() === '') {
      return reject(
        {
          status: 400,
          code: 'INVALID_ARGUMENT',
          message: 'the body is empty; expected a NormalizedWebhookEvent JSON object',
        },
        withBody,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody);
    } catch (e) {
      return reject(
        { status: 400, code: 'INVALID_ARGUMENT', message: `the body is not valid JSON: ${(e as Error).message}` },
        withBody,
      );
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return reject(
        { status: 400, code: 'INVALID_ARGUMENT', message: 'the body must be a JSON object (NormalizedWebhookEvent)' },
        withBody,
      );
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
      return reject(
        { status: 400, code: 'INVALID_ARGUMENT', message: 'the event needs string eventId and providerSlug' },
        withBody,
      );
    }
    if (slug !== null && providerSlug !== slug) {
      return reject(
        {
          status: 400,
          code: 'INVALID_ARGUMENT',
          message: `providerSlug "${logSafe(providerSlug, 60)}" in the body does not match "${logSafe(slug, 60)}" in the path`,
        },
        withBody,
      );
    }

    let duplicate: boolean;
    try {
      ({ duplicate } = await deps.store.commit({
        v: 1,
        receivedAt,
        slug,
        providerSlug,
        eventId,
        signatureHeader: signature.name,
        rawBody,
      }));
    } catch {
      return reject(
        { status: 500, code: 'INTERNAL_ERROR', message: 'the event could not be recorded durably; retry later' },
        { ...withBody, verified: true },
      );
    }
    sendJson(res, 200, SUCCESS);
    const entry = deps.store.record({ ...base, ...withBody, verified: true, answeredStatus: 200, duplicate });
    deps.log(describe(entry));
  }

  function explain(body: Buffer, secret: string): { mistakes: string[]; message: string } {
    if (body.length > DIAGNOSE_MAX_BYTES)
      return { mistakes: [], message: `signature rejected (a body of ${body.length} bytes is not diagnosed)` };
    if (!deps.diagnoses.pass().ok)
      return { mistakes: [], message: 'signature rejected (not diagnosed: too many bad signatures this second)' };
    return diagnoseSignature({ rawBody: body, secret, headers: req.headers });
  }
}

/** The providerSlug a legacy-route body names, if it is a JSON object with one. */
function namedProvider(rawBody: string): string | undefined {
  try {
    const v: unknown = JSON.parse(rawBody);
    const slug =
      typeof v === 'object' && v !== null && !Array.isArray(v)
        ? (v as Record<string, unknown>)['providerSlug']
        : undefined;
    return typeof slug === 'string' ? slug : undefined;
  } catch {
    return undefined;
  }
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

/** A rejected event keeps only its identifying fields, shortened, in memory. */
function summary(event: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of EVENT_SUMMARY_FIELDS) {
    const v = event[k];
    if (typeof v === 'string') out[k] = v.slice(0, 200);
  }
  return out;
}

/** The live console line: slug, type, actionId, newStatus, verified or why not. Never secrets; untrusted text escaped. */
export function describe(w: ReceivedWebhook): string {
  const e = w.event ?? {};
  const fields = [
    `webhook ${w.slug === null ? '(legacy)' : logSafe(w.slug, 64)}`,
    logSafe(e['eventType'], 40),
    `actionId=${logSafe(e['actionId'], 40)}`,
    `newStatus=${logSafe(e['newStatus'], 20)}`,
    `→ ${w.answeredStatus}`,
  ];
  const verdict =
    w.answeredStatus === 200
      ? w.duplicate
        ? 'verified, duplicate (not applied again)'
        : 'verified'
      : `rejected: ${logSafe(w.problem ?? '', 300)}`;
  return `${fields.join(' ')} ${verdict}`;
}
