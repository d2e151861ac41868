import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RunReport } from '../../model/report.js';
import type { Contract } from '../../spec/contract.js';
import type { CoreServer, RouteHandler } from '../core-server.js';
import { decodeCursor, START_CURSOR } from '../event-pages.js';
import { readBody } from '../body-reader.js';
import { sendError, sendJson } from '../http-io.js';
import type { WebhookInbox } from '../../model/webhooks.js';
import { readConfinedCredential } from './credential-file.js';
import { parseRegistration, type Registration, type RegistrationRules } from './registration.js';
import { credentialFingerprint, newCertificationId, type CertificationRecord, type ProviderRegistry, type StoredProvider } from './registry.js';
import { certificationSummaryView, certificationView, eventView, providerView } from './views.js';

export interface CertifyInput {
  registration: Registration;
  credential: string;
  webhookSecret: string;
  inbox: WebhookInbox;
}

/** Runs the certification engine against a registered provider (injected: tests pass a fake). */
export type Certifier = (input: CertifyInput) => Promise<RunReport>;

export interface CoreRoutesDeps {
  /** The compiled contract: validates registration bodies (CoreRegistrationInput). */
  contract: Contract;
  registry: ProviderRegistry;
  certify: Certifier;
  /** Bearer token operators must present; undefined = core routes refuse every request. */
  adminToken: string | undefined;
  adminTokenEnv: string;
  rules: () => RegistrationRules;
  /** The running core's inbox and history (set once it listens). */
  core: () => Pick<CoreServer, 'urlFor' | 'all' | 'waitFor' | 'events'> | undefined;
  /** Whether a slug is known to the webhook receiver (registered or configured). */
  knownSlug(slug: string): boolean;
  env: NodeJS.ProcessEnv;
  /** The only directory credentialFile references may name files in (symlinks resolved). */
  credentialDir: string;
  now?: () => Date;
  log?: (line: string) => void;
}

const MAX_ADMIN_BODY = 64 * 1024;
const DEFAULT_EVENTS_PAGE = 100;
const MAX_EVENTS_PAGE = 1_000;
const PROVIDER_ROUTE = /^\/api\/v1\/providers\/([^/]+)\/(certify|certifications|submit-review|events)(?:\/([^/]+))?\/?$/;

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

function authorized(req: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return false;
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  // Compare digests: equal length, constant time.
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1].trim()), digest(token));
}

async function readCredential(p: StoredProvider, env: NodeJS.ProcessEnv, credentialDir: string): Promise<{ ok: true; credential: string } | { ok: false; message: string }> {
  const ref = p.registration.credential;
  if ('env' in ref) {
    const value = env[ref.env];
    return value ? { ok: true, credential: value } : { ok: false, message: `the credential environment variable ${ref.env} is not set on the server` };
  }
  return readConfinedCredential(ref.file, credentialDir);
}

/** `limit` and `cursor` of GET …/events, or the reason they are refused. */
function pageQuery(url: URL): { ok: true; limit: number; cursor: typeof START_CURSOR } | { ok: false; message: string } {
  const rawLimit = url.searchParams.get('limit');
  const limit = rawLimit === null ? DEFAULT_EVENTS_PAGE : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_EVENTS_PAGE) return { ok: false, message: `limit must be a whole number from 1 to ${MAX_EVENTS_PAGE}` };
  const rawCursor = url.searchParams.get('cursor');
  if (rawCursor === null) return { ok: true, limit, cursor: START_CURSOR };
  const cursor = decodeCursor(rawCursor);
  return cursor ? { ok: true, limit, cursor } : { ok: false, message: 'cursor is not one this server handed out (pass nextCursor of the previous page unchanged)' };
}

/** The core routes of `provcert serve` under /api/v1/providers (bearer-token protected). */
export function createCoreRoutes(deps: CoreRoutesDeps): RouteHandler {
  const now = deps.now ?? (() => new Date());
  const running = new Set<string>();

  const readJsonBody = async (req: IncomingMessage, res: ServerResponse): Promise<{ ok: true; value: unknown } | { ok: false }> => {
    const read = await readBody(req, MAX_ADMIN_BODY, 10_000);
    if (!read.ok) {
      sendError(res, read.status, 'INVALID_ARGUMENT', read.message, true);
      return { ok: false };
    }
    const text = read.body.toString('utf8');
    if (text.trim() === '') return { ok: true, value: {} };
    try {
      return { ok: true, value: JSON.parse(text) as unknown };
    } catch (e) {
      sendError(res, 400, 'INVALID_ARGUMENT', `the body is not valid JSON: ${(e as Error).message}`);
      return { ok: false };
    }
  };

  async function register(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJsonBody(req, res);
    if (!body.ok) return;
    const parsed = parseRegistration(body.value, deps.contract, deps.rules());
    if (!parsed.ok) return sendError(res, 400, 'INVALID_ARGUMENT', `invalid registration: ${parsed.problems.join('; ')}`);
    const core = deps.core();
    if (!core) return sendError(res, 500, 'INTERNAL_ERROR', 'the core is not ready');
    const outcome = await deps.registry.register(parsed.value, now());
    if (outcome.busy) return sendError(res, 409, 'CONFLICT', `another registration of ${parsed.value.slug} is in progress; retry once it has finished`);
    const { provider, created, recertify } = outcome;
    const webhookUrl = core.urlFor(provider.registration.slug);
    deps.log?.(`provider ${provider.registration.slug} ${created ? 'registered' : 'updated'}${recertify ? ' (certification required again)' : ''}`);
    const webhook = created
      ? { url: webhookUrl, secret: provider.webhookSecret, note: 'the webhook secret is shown only now: configure it in the provider backend' }
      : { url: webhookUrl, note: 'the webhook secret is unchanged and not shown again' };
    sendJson(res, created ? 201 : 200, { provider: providerView(provider, webhookUrl), webhook, certificationRequired: created || recertify });
  }

  async function certify(res: ServerResponse, provider: StoredProvider): Promise<void> {
    const slug = provider.registration.slug;
    const core = deps.core();
    if (!core) return sendError(res, 500, 'INTERNAL_ERROR', 'the core is not ready');
    if (running.has(slug)) return sendError(res, 409, 'CONFLICT', `a certification of ${slug} is already running`);
    const credential = await readCredential(provider, deps.env, deps.credentialDir);
    if (!credential.ok) return sendError(res, 400, 'INVALID_ARGUMENT', credential.message);
    running.add(slug);
    try {
      deps.log?.(`certifying ${slug} at ${provider.registration.baseUrl}`);
      const report = await deps.certify({ registration: provider.registration, credential: credential.credential, webhookSecret: provider.webhookSecret, inbox: core });
      const at = now();
      const record: CertificationRecord = {
        id: newCertificationId(at), slug, createdAt: at.toISOString(), verdict: report.verdict, configVersion: provider.configVersion,
        credentialFingerprint: credentialFingerprint(provider.webhookSecret, credential.credential), report,
      };
      await deps.registry.addCertification(record);
      deps.log?.(`certification ${record.id} of ${slug}: ${record.verdict}`);
      sendJson(res, 200, certificationView(record));
    } finally {
      running.delete(slug);
    }
  }

  async function submitReview(res: ServerResponse, provider: StoredProvider): Promise<void> {
    const slug = provider.registration.slug;
    const [latest] = await deps.registry.certifications(slug);
    const refuse = (why: string): void => sendError(res, 409, 'CONFLICT', `cannot submit ${slug} for review: ${why}`);
    if (!latest) return refuse('it has not been certified; POST /api/v1/providers/{slug}/certify first');
    if (latest.verdict !== 'PASS') return refuse(`the latest certification (${latest.id}) did not pass`);
    if (latest.configVersion !== provider.configVersion) return refuse('the base URL, auth method or credential changed after the latest certification; certify again');
    const credential = await readCredential(provider, deps.env, deps.credentialDir);
    if (!credential.ok || credentialFingerprint(provider.webhookSecret, credential.credential) !== latest.credentialFingerprint) {
      return refuse('the credential changed after the latest certification; certify again');
    }
    const updated = await deps.registry.submitForReview(slug, now());
    if (!updated) return sendError(res, 404, 'NOT_FOUND', `no provider "${slug}"`);
    sendJson(res, 200, { slug, reviewStatus: updated.reviewStatus, submittedAt: updated.submittedAt, certificationId: latest.id });
  }

  return async (req, res, path, url) => {
    const isRegister = /^\/api\/v1\/providers\/register\/?$/.test(path);
    const match = PROVIDER_ROUTE.exec(path);
    if (!isRegister && !match) return false;
    if (!authorized(req, deps.adminToken)) {
      const message = deps.adminToken === undefined
        ? `core routes are disabled: start the server with ${deps.adminTokenEnv} set, and send it as a bearer token`
        : 'missing or wrong bearer token (Authorization: Bearer <operator token>)';
      sendError(res, 401, 'UNAUTHORIZED', message, true);
      return true;
    }
    const method = req.method ?? '';
    if (isRegister) {
      if (method !== 'POST') sendError(res, 405, 'NOT_FOUND', `use POST on ${path}`, true);
      else await register(req, res);
      return true;
    }
    const [, rawSlug = '', action, id] = match ?? [];
    const slug = decodeURIComponentSafe(rawSlug);
    const provider = slug === undefined ? undefined : deps.registry.get(slug);
    const wantMethod = action === 'certify' || action === 'submit-review' ? 'POST' : 'GET';
    if (method !== wantMethod || (id !== undefined && action !== 'certifications')) {
      sendError(res, method !== wantMethod ? 405 : 404, 'NOT_FOUND', `no route ${method} ${path}`, true);
      return true;
    }
    if (action === 'events' && slug !== undefined && (provider || deps.knownSlug(slug))) {
      const query = pageQuery(url);
      const core = deps.core();
      if (!query.ok) sendError(res, 400, 'INVALID_ARGUMENT', query.message);
      else if (!core) sendError(res, 500, 'INTERNAL_ERROR', 'the core is not ready');
      else {
        const page = await core.events(slug, query.cursor, query.limit);
        sendJson(res, 200, { data: page.items.map((w) => eventView(w, slug)), total: page.total, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
      }
      return true;
    }
    if (!provider || slug === undefined) {
      sendError(res, 404, 'NOT_FOUND', `no provider "${rawSlug}" is registered`);
      return true;
    }
    if (action === 'certify') await certify(res, provider);
    else if (action === 'submit-review') await submitReview(res, provider);
    else if (id === undefined) {
      const list = (await deps.registry.certifications(slug)).map(certificationSummaryView);
      sendJson(res, 200, { data: list, total: list.length });
    } else {
      const record = await deps.registry.certification(slug, id);
      if (record) sendJson(res, 200, certificationView(record));
      else sendError(res, 404, 'NOT_FOUND', `no certification "${id}" for ${slug}`);
    }
    return true;
  };
}

function decodeURIComponentSafe(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}
