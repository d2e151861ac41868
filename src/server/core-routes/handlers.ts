import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../body-reader.js';
import { decodeCursor, START_CURSOR } from '../event-pages.js';
import { sendError, sendJson } from '../http-io.js';
import { illegalTransitionMessage } from '../review/lifecycle.js';
import type { RouteRequest } from '../route-table.js';
import { readConfinedCredential } from './credential-file.js';
import type { CoreRoutesDeps } from './deps.js';
import { parseRegistration } from './registration.js';
import {
  type CertificationRecord,
  certificationInvalidity,
  credentialFingerprint,
  newCertificationId,
  type StoredProvider,
} from './registry.js';
import { certificationSummaryView, certificationView, eventView, providerView } from './views.js';

const MAX_REGISTRATION_BODY = 64 * 1024;
const BODY_TIMEOUT_MS = 10_000;
const DEFAULT_EVENTS_PAGE = 100;
const MAX_EVENTS_PAGE = 1_000;

type Outcome<T> = ({ ok: true } & T) | { ok: false; message: string };

export async function readCredential(
  p: StoredProvider,
  env: NodeJS.ProcessEnv,
  credentialDir: string,
): Promise<Outcome<{ credential: string }>> {
  const ref = p.registration.credential;
  if ('env' in ref) {
    const value = env[ref.env];
    return value
      ? { ok: true, credential: value }
      : { ok: false, message: `the credential environment variable ${ref.env} is not set on the server` };
  }
  return readConfinedCredential(ref.file, credentialDir);
}

/** `limit` and `cursor` of GET …/events, or the reason they are refused. */
function pageQuery(query: URLSearchParams): Outcome<{ limit: number; cursor: typeof START_CURSOR }> {
  const rawLimit = query.get('limit');
  const limit = rawLimit === null ? DEFAULT_EVENTS_PAGE : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_EVENTS_PAGE) {
    return { ok: false, message: `limit must be a whole number from 1 to ${MAX_EVENTS_PAGE}` };
  }
  const rawCursor = query.get('cursor');
  if (rawCursor === null) return { ok: true, limit, cursor: START_CURSOR };
  const cursor = decodeCursor(rawCursor);
  if (!cursor)
    return {
      ok: false,
      message: 'cursor is not one this server handed out (pass nextCursor of the previous page unchanged)',
    };
  return { ok: true, limit, cursor };
}

export async function readJsonBody(
  req: IncomingMessage,
  res: ServerResponse,
): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const read = await readBody(req, MAX_REGISTRATION_BODY, BODY_TIMEOUT_MS);
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
}

type SlugRequest = RouteRequest<{ slug: string }>;

/** One handler per core route; routes.ts maps method + path onto them. */
export function coreRouteHandlers(deps: CoreRoutesDeps) {
  const now = deps.now ?? ((): Date => new Date());
  const running = new Set<string>();

  /** The registered provider the path names, or a 404 answered. */
  const registered = (slug: string, res: ServerResponse): StoredProvider | undefined => {
    const provider = deps.registry.get(slug);
    if (!provider) sendError(res, 404, 'NOT_FOUND', `no provider "${slug}" is registered`);
    return provider;
  };

  async function register({ req, res }: RouteRequest<unknown>): Promise<void> {
    const body = await readJsonBody(req, res);
    if (!body.ok) return;
    const parsed = parseRegistration(body.value, deps.contract, deps.rules());
    if (!parsed.ok)
      return sendError(res, 400, 'INVALID_ARGUMENT', `invalid registration: ${parsed.problems.join('; ')}`);
    const core = deps.core();
    if (!core) return sendError(res, 500, 'INTERNAL_ERROR', 'the core is not ready');
    const outcome = await deps.registry.register(parsed.value, now(), 'admin');
    if (outcome.kind === 'busy')
      return sendError(
        res,
        409,
        'CONFLICT',
        `another registration of ${parsed.value.slug} is in progress; retry once it has finished`,
      );
    if (outcome.kind === 'conflict')
      return sendError(
        res,
        409,
        'CONFLICT',
        `${illegalTransitionMessage(parsed.value.slug, 'UPDATE_INTEGRATION', outcome.current)} (a changed configuration is not stored; only an admin reopen moves a ${outcome.current} provider back to DRAFT)`,
      );
    const { provider, created, recertify, providerToken } = outcome;
    const webhookUrl = core.urlFor(provider.registration.slug);
    deps.log?.(
      `provider ${provider.registration.slug} ${created ? 'registered' : 'updated'}${recertify ? ' (certification required again)' : ''}`,
    );
    const webhook = created
      ? {
          url: webhookUrl,
          secret: provider.webhookSecret,
          note: 'the webhook secret is shown only now: configure it in the provider backend',
        }
      : { url: webhookUrl, note: 'the webhook secret is unchanged and not shown again' };
    sendJson(res, created ? 201 : 200, {
      provider: providerView(provider, webhookUrl, await deps.registry.isCertified(provider)),
      webhook,
      ...(providerToken
        ? {
            providerToken: {
              token: providerToken,
              note: 'the provider bearer token for /api/v1/providers/me/* is shown only now; only its hash is kept',
            },
          }
        : {}),
      certificationRequired: created || recertify,
    });
  }

  async function certify({ res, params: { slug } }: SlugRequest): Promise<void> {
    const provider = registered(slug, res);
    if (!provider) return;
    const core = deps.core();
    if (!core) return sendError(res, 500, 'INTERNAL_ERROR', 'the core is not ready');
    if (running.has(slug)) return sendError(res, 409, 'CONFLICT', `a certification of ${slug} is already running`);
    const credential = await readCredential(provider, deps.env, deps.credentialDir);
    if (!credential.ok) return sendError(res, 400, 'INVALID_ARGUMENT', credential.message);
    running.add(slug);
    try {
      deps.log?.(`certifying ${slug} at ${provider.registration.baseUrl}`);
      const { registration, webhookSecret } = provider;
      const report = await deps.certify({
        registration,
        credential: credential.credential,
        webhookSecret,
        inbox: core,
      });
      const at = now();
      const record: CertificationRecord = {
        id: newCertificationId(at),
        slug,
        createdAt: at.toISOString(),
        verdict: report.verdict,
        configVersion: provider.configVersion,
        credentialFingerprint: credentialFingerprint(provider, credential.credential),
        report,
      };
      await deps.registry.addCertification(record, at, 'admin');
      deps.log?.(`certification ${record.id} of ${slug}: ${record.verdict}`);
      sendJson(res, 200, certificationView(record, deps.registry.get(slug) ?? provider));
    } finally {
      running.delete(slug);
    }
  }

  async function certifications({ res, params: { slug } }: SlugRequest): Promise<void> {
    const provider = registered(slug, res);
    if (!provider) return;
    const list = (await deps.registry.certifications(slug)).map((r) => certificationSummaryView(r, provider));
    sendJson(res, 200, { data: list, total: list.length });
  }

  async function certification({
    res,
    params: { slug, id },
  }: RouteRequest<{ slug: string; id: string }>): Promise<void> {
    const provider = registered(slug, res);
    if (!provider) return;
    const record = await deps.registry.certification(slug, id);
    if (record) sendJson(res, 200, certificationView(record, provider));
    else sendError(res, 404, 'NOT_FOUND', `no certification "${id}" for ${slug}`);
  }

  /** Why the provider's latest certification does not allow submit-review, or undefined when it does. */
  async function certificationProblem(provider: StoredProvider): Promise<string | undefined> {
    const slug = provider.registration.slug;
    const [latest] = await deps.registry.certifications(slug);
    if (!latest) return 'it has not been certified; POST /api/v1/providers/{slug}/certify first';
    if (latest.verdict !== 'PASS')
      return latest.verdict === 'INCOMPLETE'
        ? `the latest certification (${latest.id}) is INCOMPLETE (a rule was not tested; its report names the setting that tests it): certify again`
        : `the latest certification (${latest.id}) did not pass`;
    const invalid = certificationInvalidity(provider, latest);
    if (invalid === 'invalidated by reopen')
      return `the latest certification (${latest.id}) was invalidated by reopen; certify again`;
    if (invalid !== undefined)
      return 'the configuration (base URL, auth method, credential reference, capabilities or fulfillment) changed after the latest certification; certify again';
    const credential = await readCredential(provider, deps.env, deps.credentialDir);
    if (!credential.ok || credentialFingerprint(provider, credential.credential) !== latest.credentialFingerprint)
      return 'the credential changed after the latest certification; certify again';
    return undefined;
  }

  async function submitReview({ res, params: { slug } }: SlugRequest): Promise<void> {
    const outcome = await deps.registry.transition(
      slug,
      'SUBMIT_REVIEW',
      { actor: 'admin', guard: certificationProblem },
      now(),
    );
    if (outcome.kind === 'not-found') return sendError(res, 404, 'NOT_FOUND', `no provider "${slug}" is registered`);
    if (outcome.kind === 'illegal')
      return sendError(res, 409, 'CONFLICT', illegalTransitionMessage(slug, 'SUBMIT_REVIEW', outcome.current));
    if (outcome.kind === 'guard-failed')
      return sendError(res, 409, 'CONFLICT', `cannot submit ${slug} for review: ${outcome.message}`);
    const [latest] = await deps.registry.certifications(slug);
    deps.log?.(`provider ${slug} submitted for review`);
    sendJson(res, 200, {
      slug,
      reviewStatus: outcome.provider.reviewStatus,
      submittedAt: outcome.provider.submittedAt,
      certificationId: latest?.id,
    });
  }

  /** Registered providers and slugs configured with --slug/--config alike. */
  async function events({ res, params: { slug }, query }: SlugRequest): Promise<void> {
    if (!deps.registry.get(slug) && !deps.knownSlug(slug))
      return sendError(res, 404, 'NOT_FOUND', `no provider "${slug}" is registered`);
    const page = pageQuery(query());
    const core = deps.core();
    if (!page.ok) return sendError(res, 400, 'INVALID_ARGUMENT', page.message);
    if (!core) return sendError(res, 500, 'INTERNAL_ERROR', 'the core is not ready');
    const found = await core.events(slug, page.cursor, page.limit);
    sendJson(res, 200, {
      data: found.items.map((w) => eventView(w, slug)),
      total: found.total,
      ...(found.nextCursor ? { nextCursor: found.nextCursor } : {}),
    });
  }

  return { register, certify, certifications, certification, submitReview, events };
}
