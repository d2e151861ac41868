import { inboxFor } from '../../model/webhooks.js';
import { issueCertificate } from '../certificates/issue.js';
import { API_PREFIX } from '../core-server.js';
import { sendError, sendJson } from '../http-io.js';
import { illegalTransitionMessage } from '../review/lifecycle.js';
import type { RouteRequest } from '../route-table.js';
import { actorOf, type CoreContext, registered, type SlugRequest } from './context.js';
import type { Caller } from './guards.js';
import {
  type CertificationRecord,
  certificationInvalidity,
  credentialFingerprint,
  newCertificationId,
  type StoredProvider,
} from './registry.js';
import { readCredential } from './request-input.js';
import { certificationSummaryView, certificationView } from './views.js';

/** POST /providers/{slug}/certify (operator, or the owning account): one certification run, its record kept and answered. */
export async function certify(
  ctx: CoreContext,
  { res, params: { slug }, granted }: SlugRequest<Caller>,
): Promise<void> {
  const provider = registered(ctx, slug, res, granted);
  if (!provider) return;
  const core = ctx.core();
  if (!core) return sendError(res, 500, 'INTERNAL_ERROR', 'the core is not ready');
  if (ctx.running.has(slug)) return sendError(res, 409, 'CONFLICT', `a certification of ${slug} is already running`);
  const credential = await readCredential(provider, ctx.env, ctx.credentialDir);
  if (!credential.ok) return sendError(res, 400, 'INVALID_ARGUMENT', credential.message);
  // From now on every output of serve masks it (an echoing provider repeats it in its events).
  ctx.issued?.(credential.credential);
  ctx.running.add(slug);
  const hooks = ctx.progress.begin(slug, ctx.now());
  try {
    ctx.log?.(`certifying ${slug} at ${provider.registration.baseUrl}`);
    const { registration, webhookSecret } = provider;
    // Only the events on this provider's own route (verified there with its own secret) count for it.
    const inbox = inboxFor(core, slug);
    const report = await ctx.certify({ registration, credential: credential.credential, webhookSecret, inbox, hooks });
    const at = ctx.now();
    const id = newCertificationId(at);
    const fingerprint = credentialFingerprint(provider, credential.credential);
    const record: CertificationRecord = {
      id,
      slug,
      createdAt: at.toISOString(),
      verdict: report.verdict,
      configVersion: provider.configVersion,
      credentialFingerprint: fingerprint,
      report,
      certificate: issueCertificate({
        keys: ctx.keys,
        provider,
        credentialFingerprint: fingerprint,
        report,
        certificationId: id,
        issuedAt: at,
        issuer: `${core.url}${API_PREFIX}`,
        webhookSecretOverlapSeconds: Math.round(ctx.webhookSecretOverlapMs / 1000),
      }),
    };
    await ctx.registry.addCertification(record, at, actorOf(granted));
    ctx.log?.(`certification ${record.id} of ${slug}: ${record.verdict}`);
    sendJson(res, 200, certificationView(record, ctx.registry.get(slug) ?? provider));
  } finally {
    ctx.running.delete(slug);
    ctx.progress.end(slug);
  }
}

/** GET /providers/{slug}/certifications (operator, or the owning account), newest first. */
export async function certifications(
  ctx: CoreContext,
  { res, params: { slug }, granted }: SlugRequest<Caller>,
): Promise<void> {
  const provider = registered(ctx, slug, res, granted);
  if (!provider) return;
  const list = (await ctx.registry.certifications(slug)).map((r) => certificationSummaryView(r, provider));
  sendJson(res, 200, { data: list, total: list.length });
}

/** GET /providers/{slug}/certifications/{id} (operator, or the owning account), with its report. */
export async function certification(
  ctx: CoreContext,
  { res, params: { slug, id }, granted }: RouteRequest<{ slug: string; id: string }, Caller>,
): Promise<void> {
  const provider = registered(ctx, slug, res, granted);
  if (!provider) return;
  const record = await ctx.registry.certification(slug, id);
  if (record) sendJson(res, 200, certificationView(record, provider));
  else sendError(res, 404, 'NOT_FOUND', `no certification "${id}" for ${slug}`);
}

/** Why the provider's latest certification does not allow submit-review, or undefined when it does. */
async function certificationProblem(ctx: CoreContext, provider: StoredProvider): Promise<string | undefined> {
  const [latest] = await ctx.registry.certifications(provider.registration.slug);
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
  const credential = await readCredential(provider, ctx.env, ctx.credentialDir);
  if (!credential.ok || credentialFingerprint(provider, credential.credential) !== latest.credentialFingerprint)
    return 'the credential changed after the latest certification; certify again';
  return undefined;
}

/**
 * POST /providers/{slug}/submit-review (operator, or the owning account): allowed on a passing certification of the
 * current configuration.
 */
export async function submitReview(
  ctx: CoreContext,
  { res, params: { slug }, granted }: SlugRequest<Caller>,
): Promise<void> {
  if (!registered(ctx, slug, res, granted)) return;
  const outcome = await ctx.registry.transition(
    slug,
    'SUBMIT_REVIEW',
    { actor: actorOf(granted), guard: (p) => certificationProblem(ctx, p) },
    ctx.now(),
  );
  if (outcome.kind === 'not-found') return sendError(res, 404, 'NOT_FOUND', `no provider "${slug}" is registered`);
  if (outcome.kind === 'illegal')
    return sendError(res, 409, 'CONFLICT', illegalTransitionMessage(slug, 'SUBMIT_REVIEW', outcome.current));
  if (outcome.kind === 'guard-failed')
    return sendError(res, 409, 'CONFLICT', `cannot submit ${slug} for review: ${outcome.message}`);
  const [latest] = await ctx.registry.certifications(slug);
  ctx.log?.(`provider ${slug} submitted for review`);
  sendJson(res, 200, {
    slug,
    reviewStatus: outcome.provider.reviewStatus,
    submittedAt: outcome.provider.submittedAt,
    certificationId: latest?.id,
  });
}
