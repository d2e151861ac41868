import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Contract } from '../contract/contract.js';
import { SIGNATURE_HEADER } from '../model/contract-constants.js';
import type { ReceivedWebhook } from '../model/webhooks.js';
import { isSensitiveHeader, MASK } from '../util/redact.js';
import { readSignedBody } from './body-reader.js';
import { diagnoseSignature, type SignatureDiagnosis } from './diagnose.js';
import { type CoreErrorCode, dropUnreadBody, isJsonContentType, logSafe, sendError, sendText } from './http-io.js';
import { type InflightBudget, type IngestLimits, RETRY_AFTER_S } from './limits.js';
import type { RateGate } from './rate-gate.js';
import { digestMatches, findSignatureHeader, type SignatureHeader, signatureDigest } from './signature.js';
import type { NewWebhook, WebhookStore } from './webhook-store.js';

export interface WebhookRouteDeps {
  contract: Contract;
  store: WebhookStore;
  /** The webhook secret of the provider with this slug; undefined = unknown provider. */
  secretFor(slug: string): string | undefined;
  /** The secret a rotation replaced for this slug, if any (`active`: still inside its overlap window). */
  previousSecretFor?(slug: string): PreviousSecret | undefined;
  /** Whether the slugless legacy route is served (its events are verified with the named provider's secret). */
  legacyRoute: boolean;
  limits: IngestLimits;
  budget: InflightBudget;
  /** Bounds the costly signature diagnosis under a flood of bad signatures. */
  diagnoses: RateGate;
  /** Bounds the console lines of rejected requests; the rest are counted in one line. */
  rejectionLines: RateGate;
  /** One line per request answered; absent = nobody reads them, so they are not even composed. */
  log?: (line: string) => void;
}

/** A rotated-out webhook secret: accepted while `active`; after that it only explains a 401. */
export interface PreviousSecret {
  secret: string;
  active: boolean;
  rotatedAt: string;
  validUntil: string;
}

const MAX_SCHEMA_PROBLEMS_SHOWN = 5;
/** Bodies above this are not diagnosed (each diagnosis hashes dozens of variants). */
const DIAGNOSE_MAX_BYTES = 16 * 1024;
/** What a rejected request keeps in memory of its body and event. */
const REJECTED_BODY_KEPT = 1024;
const EVENT_SUMMARY_FIELDS = ['eventId', 'eventType', 'providerSlug', 'timestamp', 'actionId', 'newStatus'];
/** WebhookIngestionResponse of an accepted event, serialized once. */
const SUCCESS_JSON = JSON.stringify({ success: true });

/** Header names seen → whether their values are masked (names repeat on every request; the test is a regex). */
const sensitiveNames = new Map<string, boolean>();
const NAMES_KEPT = 1_024;
/** Printable ASCII only: nothing for logSafe to escape, so short values are kept as they are. */
const PLAIN = /^[\x20-\x7e]*$/;
const HEADER_VALUE_KEPT = 200;

/** The last millisecond's ISO 8601 form: requests arriving within one millisecond share it, not a Date each. */
let lastMs = Number.NaN;
let lastIso = '';
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

function sensitive(name: string): boolean {
  let known = sensitiveNames.get(name);
  if (known === undefined) {
    if (sensitiveNames.size >= NAMES_KEPT) sensitiveNames.clear();
    known = isSensitiveHeader(name);
    sensitiveNames.set(name, known);
  }
  return known;
}

/** Header values that may carry credentials or signatures are masked (the one masker's rule); the names are kept. */
export function maskHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const raw = headers[name];
    if (raw === undefined) continue;
    const value = typeof raw === 'string' ? raw : raw.join(', ');
    out[name] = sensitive(name)
      ? MASK
      : value.length <= HEADER_VALUE_KEPT && PLAIN.test(value)
        ? value
        : logSafe(value, HEADER_VALUE_KEPT);
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

/** One request being answered (a plain object: no closures are made per request). */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  slug: string | null;
  deps: WebhookRouteDeps;
  receivedAt: string;
}

/** What a request's record says beyond the exchange itself. */
type Details = Partial<
  Pick<
    NewWebhook,
    'rawBody' | 'signatureHeader' | 'event' | 'verified' | 'verifiedWith' | 'attributedTo' | 'schemaValid'
  >
>;

/** POST /api/v1/webhooks/{slug} and the legacy POST /api/v1/webhooks (slug null). Never throws. */
export async function handleWebhook(
  req: IncomingMessage,
  res: ServerResponse,
  slug: string | null,
  deps: WebhookRouteDeps,
): Promise<void> {
  const x: Exchange = { req, res, slug, deps, receivedAt: isoNow() };

  // Unknown slugs are refused before a byte of the body is read.
  const pathSecret = slug === null ? undefined : deps.secretFor(slug);
  if (slug !== null && pathSecret === undefined) {
    return reject(x, {
      status: 404,
      code: 'NOT_FOUND',
      message: `no provider with slug "${logSafe(slug, 64)}" is known to this server`,
      closeConnection: true,
    });
  }
  if (slug === null && !deps.legacyRoute) {
    return reject(x, {
      status: 404,
      code: 'NOT_FOUND',
      message:
        'the legacy route /api/v1/webhooks is not configured on this server; post to /api/v1/webhooks/{providerSlug}',
      closeConnection: true,
    });
  }
  // A wrong Content-Type is answered 415 only once the signature is checked (the body is read under the same
  // limits): a verified sender's mistake is then that provider's, anyone else's is noise.
  const contentType = req.headers['content-type'];
  const wrongType = isJsonContentType(contentType)
    ? undefined
    : `Content-Type must be application/json (found ${contentType === undefined ? 'none' : `"${logSafe(contentType, 60)}"`})`;

  const reading = readSignedBody(req, {
    maxBytes: deps.limits.maxBodyBytes,
    timeoutMs: deps.limits.bodyTimeoutMs,
    budget: deps.budget,
  });
  try {
    const read = await reading.outcome;
    if (!read.ok) {
      const busy = read.status === 503;
      return reject(x, {
        status: read.status,
        code: busy ? 'INTERNAL_ERROR' : 'INVALID_ARGUMENT',
        message: read.message,
        closeConnection: true,
        ...(busy ? { headers: { 'retry-after': String(RETRY_AFTER_S) } } : {}),
      });
    }
    await accept(x, read.body, pathSecret, wrongType);
  } finally {
    reading.release();
  }
}

/** Answer with an error, note the request (bounded: a rejected body keeps its start only) and log it, rate-limited. */
function reject(x: Exchange, r: Rejection, details: Details = {}): void {
  const { req, res, deps } = x;
  sendError(res, r.status, r.code, r.message, r.closeConnection, r.headers);
  if (r.closeConnection) dropUnreadBody(req, res);
  const entry = deps.store.record({
    receivedAt: x.receivedAt,
    slug: x.slug,
    headers: maskHeaders(req.headers),
    verified: details.verified ?? false,
    ...(details.verifiedWith === undefined ? {} : { verifiedWith: details.verifiedWith }),
    ...(details.attributedTo === undefined ? {} : { attributedTo: details.attributedTo }),
    ...(details.schemaValid === undefined ? {} : { schemaValid: details.schemaValid }),
    answeredStatus: r.status,
    duplicate: false,
    rawBody: (details.rawBody ?? '').slice(0, REJECTED_BODY_KEPT),
    ...(details.signatureHeader === undefined ? {} : { signatureHeader: details.signatureHeader }),
    ...(details.event ? { event: summary(details.event) } : {}),
    problem: r.problem ?? r.message,
  });
  if (!deps.log) return;
  const gate = deps.rejectionLines.pass();
  if (gate.refusedBefore > 0)
    deps.log(`… ${gate.refusedBefore} more rejected webhook requests in that second were not logged`);
  if (gate.ok) deps.log(describe(entry));
}

/**
 * Verify, attribute, parse, validate and durably log one fully read body; answer 200 once it is on disk. The
 * request is attributed to a provider only once its signature verifies with that provider's secret (or the
 * diagnosis proves it was made with it); until then nothing in it is believed, not even the slug it names.
 */
async function accept(
  x: Exchange,
  body: Buffer,
  knownSecret: string | undefined,
  wrongType: string | undefined,
): Promise<void> {
  const { req, res, slug, deps } = x;
  const rawBody = body.toString('utf8');
  const details: Details = { rawBody };
  const signature = findSignatureHeader(req.headers);
  if (signature) details.signatureHeader = signature.name;

  // The legacy route learns the provider from the body; its secret, never the shared one, verifies it.
  let secret = knownSecret;
  let signer = slug;
  if (secret === undefined) {
    const named = namedProvider(rawBody);
    if (named === undefined) {
      return reject(
        x,
        {
          status: 400,
          code: 'INVALID_ARGUMENT',
          message:
            'the legacy route needs a JSON event with a string providerSlug; post to /api/v1/webhooks/{providerSlug}',
        },
        details,
      );
    }
    secret = deps.secretFor(named);
    if (secret === undefined) {
      return reject(
        x,
        {
          status: 404,
          code: 'NOT_FOUND',
          message: `no provider with slug "${logSafe(named, 64)}" is known to this server`,
        },
        { ...details, ...parsedEvent(rawBody) },
      );
    }
    signer = named;
  }

  const previous = signer === null ? undefined : deps.previousSecretFor?.(signer);
  const current = signature !== undefined && digestMatches(signatureDigest(secret, body), signature.value);
  // Inside the overlap window a signature the current secret refuses is tried with the replaced one: one more
  // HMAC over a bounded body, for rotated providers only, until the window ends.
  const byPrevious =
    !current && signature !== undefined && previous?.active === true && signedWith(previous, body, signature);
  if (!signature || (!current && !byPrevious)) {
    const message = signature
      ? `signature in ${signature.name} does not match the HMAC-SHA256 (hex) of the raw body`
      : `missing signature: send the hex HMAC-SHA256 of the raw body in the ${SIGNATURE_HEADER} header`;
    const rotatedOut = signature && previous && !previous.active ? { previous, signature } : undefined;
    const problem = explain(x, body, secret, rotatedOut);
    const hint =
      problem.mistakes.includes('non-canonical-header') && !signature ? ' (the header used is not accepted)' : '';
    const parsed = parsedEvent(rawBody);
    return reject(
      x,
      { status: 401, code: 'UNAUTHORIZED', message: message + hint, problem: problem.message },
      {
        ...details,
        ...parsed,
        ...(problem.sameSecret && signer !== null && !replayed(deps.store, signer, parsed.event)
          ? { attributedTo: signer }
          : {}),
      },
    );
  }
  details.verified = true;
  if (!current) details.verifiedWith = 'previous';
  if (signer !== null) details.attributedTo = signer;
  if (wrongType !== undefined) {
    return reject(
      x,
      { status: 415, code: 'INVALID_ARGUMENT', message: wrongType },
      { ...details, ...parsedEvent(rawBody) },
    );
  }
  // Not schema-valid until it parses and validates (a verified body that is not JSON is not a valid event either).
  details.schemaValid = false;

  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch (e) {
    // Only a body that failed to parse is tested for emptiness (a trim per accepted event costs a copy).
    const message =
      rawBody.trim() === ''
        ? 'the body is empty; expected a NormalizedWebhookEvent JSON object'
        : `the body is not valid JSON: ${(e as Error).message}`;
    return reject(x, { status: 400, code: 'INVALID_ARGUMENT', message }, details);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return reject(
      x,
      { status: 400, code: 'INVALID_ARGUMENT', message: 'the body must be a JSON object (NormalizedWebhookEvent)' },
      details,
    );
  }
  const event = parsed as Record<string, unknown>;
  details.event = event;
  const validation = deps.contract.validate('NormalizedWebhookEvent', event);
  details.schemaValid = validation.valid;
  if (!validation.valid) {
    const shown = validation.problems.slice(0, MAX_SCHEMA_PROBLEMS_SHOWN).map((p) => p.text);
    const more = validation.problems.length - shown.length;
    const message = `the event does not match NormalizedWebhookEvent: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
    return reject(x, { status: 400, code: 'INVALID_ARGUMENT', message }, details);
  }
  const providerSlug = event['providerSlug'];
  const eventId = event['eventId'];
  if (typeof providerSlug !== 'string' || typeof eventId !== 'string') {
    return reject(
      x,
      { status: 400, code: 'INVALID_ARGUMENT', message: 'the event needs string eventId and providerSlug' },
      details,
    );
  }
  if (slug !== null && providerSlug !== slug) {
    return reject(
      x,
      {
        status: 400,
        code: 'INVALID_ARGUMENT',
        message: `providerSlug "${logSafe(providerSlug, 60)}" in the body does not match "${logSafe(slug, 60)}" in the path`,
      },
      details,
    );
  }

  let duplicate: boolean;
  try {
    ({ duplicate } = await deps.store.commit({
      v: 1,
      receivedAt: x.receivedAt,
      slug,
      providerSlug,
      eventId,
      signatureHeader: signature.name,
      rawBody,
      ...(details.verifiedWith ? { verifiedWith: details.verifiedWith } : {}),
    }));
  } catch {
    return reject(
      x,
      { status: 500, code: 'INTERNAL_ERROR', message: 'the event could not be recorded durably; retry later' },
      details,
    );
  }
  sendText(res, 200, SUCCESS_JSON);
  const entry = deps.store.record({
    receivedAt: x.receivedAt,
    slug,
    headers: maskHeaders(req.headers),
    rawBody,
    event,
    verified: true,
    ...(details.verifiedWith ? { verifiedWith: details.verifiedWith } : {}),
    ...(signer === null ? {} : { attributedTo: signer }),
    schemaValid: true,
    signatureHeader: signature.name,
    answeredStatus: 200,
    duplicate,
  });
  if (deps.log) deps.log(describe(entry));
}

type Explained = Pick<SignatureDiagnosis, 'mistakes' | 'message' | 'sameSecret'>;

function signedWith(previous: PreviousSecret, body: Buffer, signature: { value: string }): boolean {
  return digestMatches(signatureDigest(previous.secret, body), signature.value);
}

/** Contract, Authentication §7: "A 401 means … a rotated secret." Said as such, never the secret. */
function rotatedOutProblem(previous: PreviousSecret): Explained {
  return {
    mistakes: [],
    message: `signed with the webhook secret rotated out at ${previous.rotatedAt} (accepted until ${previous.validUntil}): the provider backend must sign with the new secret`,
    sameSecret: false,
  };
}

/**
 * Why a signature was refused, in words. A secret rotated out (its window over) is tried first, under the same
 * rate gate: "a rotated secret" is one of the contract's reasons for a 401.
 */
function explain(
  x: Exchange,
  body: Buffer,
  secret: string,
  rotated: { previous: PreviousSecret; signature: SignatureHeader } | undefined,
): Explained {
  if (body.length > DIAGNOSE_MAX_BYTES)
    return {
      mistakes: [],
      message: `signature rejected (a body of ${body.length} bytes is not diagnosed)`,
      sameSecret: false,
    };
  if (!x.deps.diagnoses.pass().ok)
    return {
      mistakes: [],
      message: 'signature rejected (not diagnosed: too many bad signatures this second)',
      sameSecret: false,
    };
  if (rotated && signedWith(rotated.previous, body, rotated.signature)) return rotatedOutProblem(rotated.previous);
  try {
    return diagnoseSignature({ rawBody: body, secret, headers: x.req.headers });
  } catch {
    // The diagnosis is a courtesy: whatever an unauthenticated body does to it, the answer stays a 401.
    return { mistakes: [], message: 'signature rejected (the body could not be diagnosed)', sameSecret: false };
  }
}

/**
 * A provably-own digest on an event already accepted from that provider is someone re-sending a captured event
 * (re-formatted, or in another header), not the provider's signing mistake: it stays unattributed.
 */
function replayed(store: WebhookStore, slug: string, event: Record<string, unknown> | undefined): boolean {
  const eventId = event?.['eventId'];
  return typeof eventId === 'string' && store.hasApplied(slug, eventId);
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
function parsedEvent(rawBody: string): Pick<NewWebhook, 'event'> | Record<string, never> {
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
      ? `${w.duplicate ? 'verified, duplicate (not applied again)' : 'verified'}${w.verifiedWith === 'previous' ? ' with the previous (rotated) secret: the provider backend has not switched yet' : ''}`
      : `rejected: ${logSafe(w.problem ?? '', 300)}`;
  return `${fields.join(' ')} ${verdict}`;
}
