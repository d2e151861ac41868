import { describe, expect, it } from 'vitest';
import { Findings } from '../../../src/checks/outcome.js';
import { describeStatuses, errorResponseProblem, expectError, expectJson } from '../../../src/checks/support/expect.js';
import { classifyBody } from '../../../src/http/body.js';
import type { HttpFailure, HttpOutcome, HttpResponse } from '../../../src/http/types.js';

function response(status: number, text: string, contentType = 'application/json'): HttpResponse {
  const { kind, json } = classifyBody(contentType, text);
  return {
    kind: 'response',
    status,
    headers: { 'content-type': contentType },
    contentType,
    text,
    bodyKind: kind,
    json,
    durationMs: 1,
    exchange: {
      request: { method: 'GET', url: 'http://127.0.0.1/x', headers: {} },
      response: { status, headers: {}, body: text },
      durationMs: 1,
    },
  };
}

const timeout: HttpFailure = {
  kind: 'failure',
  failure: 'timeout',
  message: 'timed out after 10000 ms waiting for http://127.0.0.1/catalog',
  durationMs: 10000,
  exchange: {
    request: { method: 'GET', url: 'http://127.0.0.1/catalog', headers: {} },
    failure: 'timed out',
    durationMs: 10000,
  },
};

const first = (f: Findings): string => f.outcome('ok').message;

describe('expectJson', () => {
  const cases: [string, HttpOutcome, RegExp | null][] = [
    ['a 200 JSON answer', response(200, '{"a":1}'), null],
    [
      'an HTML page',
      response(200, '<!doctype html><html></html>', 'text/html'),
      /GET \/catalog answered an HTML page \(content-type text\/html\): the base URL looks like a website/,
    ],
    ['an empty body', response(200, ''), /answered an empty body/],
    ['truncated JSON', response(200, '{"offerings":[{"id":'), /truncated or malformed JSON/],
    [
      'another status',
      response(500, '{"code":"INTERNAL_ERROR","message":"x"}'),
      /answered HTTP 500 INTERNAL_ERROR; expected 200/,
    ],
    ['a timeout', timeout, /GET \/catalog: timed out after 10000 ms/],
  ];
  it.each(cases)('%s', (_name, outcome, message) => {
    const f = new Findings();
    const ok = expectJson(f, outcome, 'GET /catalog');
    expect(ok).toBe(message === null);
    if (message) {
      expect(first(f)).toMatch(message);
      expect(f.outcome('').evidence).toHaveLength(1);
    }
  });
});

describe('expectError', () => {
  const opts = { what: 'wrong credential on GET /catalog', statuses: [401], codes: ['UNAUTHORIZED'] };
  const cases: [string, HttpOutcome, RegExp | null][] = [
    ['401 UNAUTHORIZED', response(401, '{"code":"UNAUTHORIZED","message":"bad key"}'), null],
    [
      'accepted',
      response(200, '{"offerings":[]}'),
      /wrong credential on GET \/catalog was answered HTTP 200; expected 401 UNAUTHORIZED ErrorResponse/,
    ],
    [
      'another code',
      response(401, '{"code":"FORBIDDEN","message":"no"}'),
      /with code FORBIDDEN; expected 401 UNAUTHORIZED/,
    ],
    ['no message', response(401, '{"code":"UNAUTHORIZED"}'), /not an ErrorResponse \("message" is missing\)/],
    [
      'an HTML 401',
      response(401, '<html>denied</html>', 'text/html'),
      /HTTP 401 with an HTML page \(content-type text\/html\); expected 401/,
    ],
    ['a timeout', timeout, /failed: timed out after 10000 ms/],
  ];
  it.each(cases)('%s', (_name, outcome, message) => {
    const f = new Findings();
    expect(expectError(f, outcome, opts)).toBe(message === null);
    if (message) expect(first(f)).toMatch(message);
  });

  it('accepts any code when none is required', () => {
    const f = new Findings();
    expect(
      expectError(f, response(422, '{"code":"SOMETHING_ELSE","message":"x"}'), { what: 'x', statuses: [400, 422] }),
    ).toBe(true);
  });
});

describe('describeStatuses', () => {
  it.each<[number[], string]>([
    [[401], '401'],
    [[400, 422], '400 or 422'],
    [Array.from({ length: 100 }, (_, i) => 400 + i), 'a 4xx status'],
    [Array.from({ length: 200 }, (_, i) => 400 + i), 'a 4xx or 5xx status'],
  ])('%j → %s', (statuses, text) => expect(describeStatuses(statuses)).toBe(text));
});

describe('errorResponseProblem', () => {
  it.each<[unknown, string | undefined]>([
    [{ code: 'NOT_FOUND', message: 'no such offering' }, undefined],
    [{ code: 404, message: 'x' }, '"code" is not a string'],
    [{ code: '', message: 'x' }, '"code" is empty'],
    [{ code: ' \t', message: 'x' }, '"code" is empty'],
    [{ error: 'x' }, '"code" is missing, "message" is missing'],
    [[], 'found an array, not an object'],
    [null, 'found null, not an object'],
  ])('%j', (json, problem) => expect(errorResponseProblem(json)).toBe(problem));
});
