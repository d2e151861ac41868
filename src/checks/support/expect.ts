import type { Contract, SchemaProblem } from '../../contract/contract.js';
import { describeBody } from '../../http/body.js';
import type { HttpOutcome, HttpResponse } from '../../http/types.js';
import type { FindingExcerpt, RequirementId } from '../../model/findings.js';
import { isRecord } from '../../util/json.js';
import { jsonExcerpt } from '../../util/json-excerpt.js';
import type { Findings } from '../outcome.js';
import { renamedFrom } from './canonical-names.js';
import { keepEvidence } from './evidence.js';

/**
 * Turning one provider answer into findings, shared by every check: a transport failure, an HTML page,
 * an empty, truncated or non-JSON body each become ONE clear line naming what was answered and what
 * was expected, and the exchange is kept as evidence.
 */

/** A response whose body parsed as JSON. */
export type JsonResponse = HttpResponse & { bodyKind: 'json' };

/** The `code` of a JSON error body, when it has a string one. */
export function errorCode(outcome: HttpOutcome): string | undefined {
  if (outcome.kind !== 'response' || !isRecord(outcome.json)) return undefined;
  const code = outcome.json['code'];
  return typeof code === 'string' ? code : undefined;
}

/** "HTTP 404 NOT_FOUND", "HTTP 200 with an HTML page (…)", or the transport failure, for messages. */
export function describeAnswer(outcome: HttpOutcome): string {
  if (outcome.kind === 'failure') return outcome.message;
  if (outcome.bodyKind !== 'json') return `HTTP ${outcome.status} with ${plainBody(outcome)}`;
  const code = errorCode(outcome);
  return `HTTP ${outcome.status}${code ? ` ${code}` : ''}`;
}

/** What a non-JSON body was, without the base-URL hint (an error route answering HTML is not a wrong base URL). */
function plainBody(outcome: HttpResponse): string {
  const ct = outcome.contentType ? ` (content-type ${outcome.contentType})` : ' (no content-type)';
  const kind = {
    json: 'JSON',
    empty: 'an empty body',
    html: 'an HTML page',
    'truncated-json': 'truncated or malformed JSON',
    'not-json': 'a body that is not JSON',
  }[outcome.bodyKind];
  return `${kind}${ct}`;
}

/** "401", "400 or 422", "a 4xx status", "a 4xx or 5xx status" — for "expected …" clauses. */
export function describeStatuses(statuses: readonly number[]): string {
  const sorted = [...new Set(statuses)].sort((a, b) => a - b);
  if (sorted.length === 0) return 'any status';
  const classes = [...new Set(sorted.map((s) => Math.floor(s / 100)))];
  const wholeClasses = classes.every((c) => sorted.filter((s) => Math.floor(s / 100) === c).length === 100);
  if (wholeClasses) return `a ${classes.map((c) => `${c}xx`).join(' or ')} status`;
  if (sorted.length === 1) return String(sorted[0]);
  return `${sorted.slice(0, -1).join(', ')} or ${String(sorted.at(-1))}`;
}

/**
 * Expect a JSON answer with the given status (default 200). Records one problem (with evidence) and
 * returns false for a transport failure, another status, or a body that is not JSON.
 */
export function expectJson(
  f: Findings,
  outcome: HttpOutcome,
  what: string,
  status = 200,
  requirement?: RequirementId,
): outcome is JsonResponse {
  if (outcome.kind === 'failure') {
    keepEvidence(f, outcome);
    return f.problem(`${what}: ${outcome.message}`, requirement);
  }
  if (outcome.status !== status) {
    keepEvidence(f, outcome);
    return f.problem(`${what} answered ${describeAnswer(outcome)}; expected ${status}`, requirement);
  }
  if (outcome.bodyKind !== 'json') {
    keepEvidence(f, outcome);
    return f.problem(
      `${what} answered ${describeBody(outcome.bodyKind, outcome.contentType)}; expected a JSON body`,
      requirement,
    );
  }
  return true;
}

/** Money fields of the contract's payloads (integers in the currency's smallest unit). */
const MONEY_FIELD = /(price|total|amount|fees?|discount|delta)$/i;

/** Enumerated fields with a rule of their own, by field name (`status` depends on the payload). */
function enumRequirement(p: SchemaProblem, payload: RequirementId): RequirementId | undefined {
  const field = p.pointer.split('/').at(-1) ?? '';
  if (field === 'paymentStatus') return 'PAYMENT-STATUS-VALUES';
  if (field === 'newStatus' || field === 'previousStatus') return 'ACTION-STATUS-ENUM';
  if (field !== 'status' || p.pointer !== '/status') return undefined;
  if (payload === 'PROVIDERINFO-REQUIRED-FIELDS') return 'PROVIDER-STATUS-VALUES';
  if (payload === 'ACTION-REQUIRED-FIELDS') return 'ACTION-STATUS-ENUM';
  return undefined;
}

/** The field name a "missing required field" problem is about. */
const missingField = (p: SchemaProblem): string | undefined => /is missing required field "([^"]+)"/.exec(p.text)?.[1];

/**
 * The requirement a schema problem stands on: a timestamp, a money amount, a null where a value may only be
 * omitted, an enumerated status and a renamed canonical field each have their own rule; anything else stands on
 * the payload's required fields. `json` (the payload) lets a renamed field be told from a missing one.
 */
export function schemaRequirement(p: SchemaProblem, payload: RequirementId, json?: unknown): RequirementId {
  if (p.rule === 'format') return 'TIMESTAMPS-ISO8601';
  if (p.rule === 'enum') {
    const own = enumRequirement(p, payload);
    if (own) return own;
  }
  const field = p.rule === 'required' ? missingField(p) : undefined;
  if (field && json !== undefined && renamedFrom(json, p.pointer, field)) return 'CANONICAL-FIELD-NAMES';
  if (p.rule === 'type' && /\(found null\)/.test(p.text)) return 'CATALOG-OPTIONAL-OMITTED';
  if (p.rule === 'type' && /must be integer/.test(p.text) && MONEY_FIELD.test(p.pointer)) return 'MONEY-INTEGERS';
  // A catalog's offerings and categories have required fields of their own.
  if (payload === 'CATALOG-REQUIRED-FIELDS' && /^\/offerings\/\d+(\/|$)/.test(p.pointer))
    return 'OFFERING-REQUIRED-FIELDS';
  if (payload === 'CATALOG-REQUIRED-FIELDS' && /^\/categories\/\d+(\/|$)/.test(p.pointer)) return 'CATEGORY-FIELDS';
  return payload;
}

/** The schema's warnings (an offsetless timestamp, a reason code outside the suggested list) as warnings. */
export function schemaWarnings(f: Findings, warnings: readonly SchemaProblem[], what: string): void {
  for (const w of warnings)
    f.warn(`${what}: ${w.text}`, w.rule === 'offsetless-timestamp' ? 'TIMESTAMPS-ISO8601' : 'WEBHOOK-TERMINAL-REASON');
}

/**
 * Validate a JSON answer against the operation's response schema. Every problem is recorded
 * (`GET /catalog does not match the schema: /offerings/3/basePrice must be integer (found string "12.50")`)
 * with the exchange once as evidence, standing on `payload` (the payload's required-fields requirement)
 * unless it is about a timestamp, money or null; returns whether it was valid.
 */
export function expectSchema(
  f: Findings,
  contract: Contract,
  outcome: JsonResponse,
  operation: string,
  what = operation,
  payload?: RequirementId,
  /** A check's own reading of a problem's rule (e.g. a wrong /status type); undefined = the usual mapping. */
  ownRequirement?: (p: SchemaProblem) => RequirementId | undefined,
): boolean {
  const result = contract.validateResponse(operation, outcome.status, outcome.json);
  if (!result) return true;
  schemaWarnings(f, result.warnings, what);
  if (result.valid) return true;
  keepEvidence(f, outcome);
  for (const p of result.problems)
    f.problem(
      `${what} does not match the schema: ${schemaProblemText(p, outcome.json)}`,
      ownRequirement?.(p) ?? (payload === undefined ? undefined : schemaRequirement(p, payload, outcome.json)),
      schemaExcerpt(p, outcome.json),
    );
  return false;
}

/** The answer around a schema problem's value (none for the "and N more problems" line). */
export function schemaExcerpt(p: SchemaProblem, json: unknown): FindingExcerpt | undefined {
  if (p.rule === 'more') return undefined;
  const found = jsonExcerpt(json, p.pointer);
  return found ? { pointer: p.pointer || '(root)', ...found } : undefined;
}

/** A schema problem in words; a missing field present under a merchant-internal name says so. */
export function schemaProblemText(p: SchemaProblem, json: unknown): string {
  const field = p.rule === 'required' ? missingField(p) : undefined;
  const alias = field === undefined ? undefined : renamedFrom(json, p.pointer, field);
  return alias
    ? `${p.text} (found "${alias}": canonical field names are not renamed to merchant-internal names)`
    : p.text;
}

export interface ExpectErrorOptions {
  /** The request in words, e.g. "wrong credential on GET /catalog". */
  what: string;
  /** Acceptable HTTP statuses. */
  statuses: readonly number[];
  /** Acceptable ErrorResponse codes; omitted = any string code. */
  codes?: readonly string[];
  /** The requirement a wrong answer violates; omitted = the check's primary one. */
  requirement?: RequirementId;
}

/**
 * Expect an ErrorResponse answer: status in the set, a JSON body `{ code: string, message: string }`
 * (the ErrorResponse schema; its code is an open string) and, when given, a code in the set. Records
 * at most one problem naming expected vs found (with evidence) and returns whether all held.
 */
export function expectError(
  f: Findings,
  outcome: HttpOutcome,
  { what, statuses, codes, requirement }: ExpectErrorOptions,
): boolean {
  const statusText = describeStatuses(statuses);
  const codeText = codes && codes.length > 0 ? codes.join(' or ') : '';
  // "401 UNAUTHORIZED ErrorResponse", or for a whole status class "an ErrorResponse with code X (a 4xx status)".
  const wanted = statusText.startsWith('a ')
    ? `an ErrorResponse${codeText ? ` with code ${codeText}` : ''} (${statusText})`
    : `${statusText}${codeText ? ` ${codeText}` : ''} ErrorResponse`;
  const fail = (found: string): false => {
    keepEvidence(f, outcome);
    return f.problem(`${what} ${found}; expected ${wanted}`, requirement);
  };
  if (outcome.kind === 'failure') return fail(`failed: ${outcome.message}`);
  if (!statuses.includes(outcome.status)) return fail(`was answered ${describeAnswer(outcome)}`);
  if (outcome.bodyKind !== 'json') return fail(`was answered HTTP ${outcome.status} with ${plainBody(outcome)}`);
  const missing = errorResponseProblem(outcome.json);
  if (missing) return fail(`was answered HTTP ${outcome.status} with a body that is not an ErrorResponse (${missing})`);
  const code = errorCode(outcome);
  if (codes && codes.length > 0 && (code === undefined || !codes.includes(code)))
    return fail(`was answered HTTP ${outcome.status} with code ${code ?? '(none)'}`);
  return true;
}

/** Why a JSON value is not `{ code: string, message: string }`, or undefined when it is. */
export function errorResponseProblem(json: unknown): string | undefined {
  if (!isRecord(json))
    return `found ${Array.isArray(json) ? 'an array' : json === null ? 'null' : typeof json}, not an object`;
  const missing = ['code', 'message'].filter((k) => typeof json[k] !== 'string');
  if (missing.length > 0)
    return missing.map((k) => (k in json ? `"${k}" is not a string` : `"${k}" is missing`)).join(', ');
  // "Codes are in Errors": a blank code names none of them, wherever certification reads a refusal.
  if ((json['code'] as string).trim() === '') return '"code" is empty';
  return undefined;
}
