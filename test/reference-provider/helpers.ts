import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthMethod } from '../../src/model/contract-constants.js';
import {
  type ReferenceProviderOptions,
  type RunningProvider,
  startReferenceProvider,
} from '../../src/reference-provider/index.js';

export const CREDENTIAL = 'test-credential-7f3a';
export const WEBHOOK_SECRET = 'test-webhook-secret-91c2';

export const hmac = (key: string, bytes: string): string => createHmac('sha256', key).update(bytes).digest('hex');

/** Credential headers as a conforming caller sends them. */
export function authHeaders(method: AuthMethod, credential: string, body: string): Record<string, string> {
  switch (method) {
    case 'API_KEY':
      return { 'x-provider-api-key': credential };
    case 'BEARER_TOKEN':
      return { authorization: `Bearer ${credential}` };
    case 'HMAC_SIGNATURE':
      return { 'x-service-signature': hmac(credential, body) };
  }
}

export interface Answer {
  status: number;
  contentType: string | null;
  text: string;
  json: unknown;
}

export interface CallOptions {
  body?: unknown;
  /** Default: the right credential. `null`: no credential. A string: that credential instead. */
  credential?: string | null;
  headers?: Record<string, string>;
}

/** A client bound to one provider and auth method. */
export function clientFor(provider: Pick<RunningProvider, 'url'>, method: AuthMethod) {
  return async function call(httpMethod: 'GET' | 'POST', path: string, options: CallOptions = {}): Promise<Answer> {
    const body = options.body === undefined ? '' : JSON.stringify(options.body);
    const credential = options.credential === undefined ? CREDENTIAL : options.credential;
    const headers: Record<string, string> = {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(credential === null ? {} : authHeaders(method, credential, body)),
      ...options.headers,
    };
    const response = await fetch(`${provider.url}${path}`, { method: httpMethod, headers, ...(body ? { body } : {}) });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, contentType: response.headers.get('content-type'), text, json };
  };
}

export type Call = ReturnType<typeof clientFor>;

export async function startProvider(overrides: Partial<ReferenceProviderOptions> = {}): Promise<RunningProvider> {
  return startReferenceProvider({
    authMethod: 'API_KEY',
    credential: CREDENTIAL,
    webhookSecret: WEBHOOK_SECRET,
    ...overrides,
  });
}

/** A JSON object, or a thrown error naming what was found (tests fail on a wrong shape). */
export function obj(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`expected a JSON object, got ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}

export function arr(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new Error(`expected a JSON array, got ${JSON.stringify(value)}`);
  return value;
}

/** The value at a dotted path ("lines.0.optionsTotal"), or undefined. */
export function at(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

export function str(value: unknown, path: string): string {
  const found = at(value, path);
  if (typeof found !== 'string') throw new Error(`expected a string at ${path}, got ${JSON.stringify(found)}`);
  return found;
}

export function num(value: unknown, path: string): number {
  const found = at(value, path);
  if (typeof found !== 'number') throw new Error(`expected a number at ${path}, got ${JSON.stringify(found)}`);
  return found;
}

export interface ReceivedEvent {
  headers: IncomingHttpHeaders;
  raw: string;
  path: string;
}

/** A tiny webhook receiver: records every POST with its exact bytes and answers { success: true }. */
export async function startReceiver(): Promise<{ url: string; events: ReceivedEvent[]; close(): Promise<void> }> {
  const events: ReceivedEvent[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      events.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"success":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v1/webhooks/demo-kitchen`,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The certification selection from the manifest, as the engine would send it. */
export async function certificationQuoteBody(call: Call): Promise<Record<string, unknown>> {
  const info = (await call('GET', '/provider-info')).json;
  return {
    providerSlug: at(info, 'slug'),
    locationId: at(info, 'manifest.certificationInput.locationId'),
    items: at(info, 'manifest.certificationInput.items'),
  };
}

/** Quotes the certification selection and creates an action from it. */
export async function createAction(
  call: Call,
  extra: Record<string, unknown> = {},
): Promise<{ quote: unknown; action: Answer; body: Record<string, unknown> }> {
  const quote = (await call('POST', '/quote', { body: await certificationQuoteBody(call) })).json;
  const body = {
    providerSlug: 'demo-kitchen',
    quoteId: str(quote, 'id'),
    userConfirmed: true,
    customer: { name: 'Certification Tester', phone: '+15550100000' },
    destination: { raw: '1 Test Street' },
    ...extra,
  };
  return { quote, action: await call('POST', '/actions', { body }), body };
}
