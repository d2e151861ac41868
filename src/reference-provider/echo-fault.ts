import type { IncomingHttpHeaders } from 'node:http';
import { API_KEY_HEADER, COMPAT_SIGNATURE_HEADER, SIGNATURE_HEADER } from '../model/contract-constants.js';
import { isRecord } from '../util/json.js';
import type { Reply } from './http.js';
import type { ProviderState } from './state.js';

const AUTH_HEADERS = [API_KEY_HEADER, 'authorization', SIGNATURE_HEADER, COMPAT_SIGNATURE_HEADER];

/**
 * The error-echoes-credential fault: an error answer carries the request's authentication headers, unmasked,
 * in a `debug` field (the "helpful" error page that leaks what it was sent). Nothing else changes.
 */
export function withEchoedCredential(state: ProviderState, headers: IncomingHttpHeaders, reply: Reply): Reply {
  if (!state.faults.has('error-echoes-credential') || reply.status < 400 || !isRecord(reply.json)) return reply;
  const received: Record<string, string> = {};
  for (const name of AUTH_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string') received[name] = value;
  }
  return { ...reply, json: { ...reply.json, debug: { receivedHeaders: received } } };
}
