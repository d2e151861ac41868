import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { engineCertifier } from '../../../src/cli/commands/serve.js';
import { resolveServeSettings } from '../../../src/config/serve.js';
import { loadContract } from '../../../src/contract/load.js';
import {
  ALL_CAPABILITIES,
  REFERENCE_SLUG,
  type RunningProvider,
  startReferenceProvider,
} from '../../../src/reference-provider/index.js';
import type { RunningServe } from '../../../src/server/serve.js';
import { freePort } from '../../support/ports.js';
import { registration } from '../../support/registration.js';
import { scratchDir } from '../../support/scratch.js';
import { ADMIN, call, createAccount, startCore } from './support.js';

let serve: RunningServe | undefined;
let provider: RunningProvider | undefined;
afterEach(async () => {
  await provider?.close();
  await serve?.close();
  provider = undefined;
  serve = undefined;
});

const REQUEST_CHANGES = {
  decision: 'REQUEST_CHANGES',
  reasonCode: 'INCOMPLETE_CATALOG',
  reason: 'the catalog lacks prices for two offerings',
};

describe('accounts onboard their own providers', { timeout: 300_000 }, () => {
  it('end to end through the API: account, register, save settings, certify the reference provider, submit, approve', async () => {
    const dataDir = await scratchDir('accounts-e2e');
    const settings = await resolveServeSettings({ port: '0', dataDir, local: true }, dataDir);
    const contract = await loadContract();
    const key = 'reference-key-accounts-44';
    serve = await startCore(dataDir, { certify: engineCertifier(contract, settings), env: { REF_KEY: key } });
    const core = serve;
    const account = await createAccount(core, 'Reference Foods');
    const port = await freePort();
    const body = registration({
      slug: REFERENCE_SLUG,
      baseUrl: 'http://127.0.0.1:9',
      capabilities: [...ALL_CAPABILITIES],
      credentialEnv: 'REF_KEY',
    });
    const created = await call(core, account.token, 'POST', '/providers/register', body);
    expect(created.status).toBe(201);
    const webhook = created.json['webhook'] as { url: string; secret: string };
    provider = await startReferenceProvider({
      port,
      authMethod: 'API_KEY',
      credential: key,
      webhookSecret: webhook.secret,
      webhookUrl: webhook.url,
      dataFile: join(dataDir, 'provider.json'),
    });
    // "Save API settings": the real base address.
    const saved = await call(core, account.token, 'POST', '/providers/register', {
      ...body,
      baseUrl: `http://127.0.0.1:${port}`,
    });
    expect(saved.status).toBe(200);
    const certified = await call(core, account.token, 'POST', `/providers/${REFERENCE_SLUG}/certify`);
    expect(certified.json['verdict']).toBe('PASS');
    await provider.webhooksSettled();
    const submitted = await call(core, account.token, 'POST', `/providers/${REFERENCE_SLUG}/submit-review`);
    expect(submitted.json).toMatchObject({ reviewStatus: 'PENDING_APPROVAL' });
    // The account cannot decide its own review.
    const selfApproval = await call(core, account.token, 'POST', `/admin/providers/${REFERENCE_SLUG}/review`, {
      decision: 'APPROVE',
    });
    expect(selfApproval.status).toBe(401);
    const approved = await call(core, ADMIN, 'POST', `/admin/providers/${REFERENCE_SLUG}/review`, {
      decision: 'APPROVE',
    });
    expect(approved.status).toBe(200);
    const own = await call(core, account.token, 'GET', '/account/providers');
    expect(own.json['data']).toEqual([
      expect.objectContaining({
        slug: REFERENCE_SLUG,
        metadata: expect.objectContaining({ reviewStatus: 'APPROVED' }),
      }),
    ]);
    const history = await call(core, ADMIN, 'GET', `/admin/providers/${REFERENCE_SLUG}`);
    const actors = (history.json['history'] as { actor: string; trigger: string }[]).map(
      (h) => `${h.trigger} ${h.actor}`,
    );
    // Saving the real base address was an integration update (DRAFT stays DRAFT), by the account.
    expect(actors).toEqual(['UPDATE_INTEGRATION account', 'SUBMIT_REVIEW account', 'APPROVE admin']);
  });

  it('another account provider is 404 on every provider route; its slug cannot be taken over', async () => {
    const dataDir = await scratchDir('accounts-isolation');
    serve = await startCore(dataDir);
    const core = serve;
    const [owner, other] = [await createAccount(core, 'Owner'), await createAccount(core, 'Other')];
    expect((await call(core, owner.token, 'POST', '/providers/register', registration())).status).toBe(201);
    expect(
      (await call(core, other.token, 'POST', '/providers/register', registration({ slug: 'other-kitchen' }))).status,
    ).toBe(201);
    const certified = await call(core, owner.token, 'POST', '/providers/demo-kitchen/certify');
    expect(certified.status).toBe(200);
    const id = String(certified.json['id']);
    const routes: ['GET' | 'POST', string][] = [
      ['POST', '/providers/demo-kitchen/certify'],
      ['GET', '/providers/demo-kitchen/certifications'],
      ['GET', `/providers/demo-kitchen/certifications/${id}`],
      ['POST', '/providers/demo-kitchen/submit-review'],
      ['GET', '/providers/demo-kitchen/events'],
      ['GET', '/providers/demo-kitchen/events/evt-1'],
      ['GET', '/providers/demo-kitchen/certificate'],
      ['GET', '/providers/demo-kitchen/badge.svg'],
    ];
    for (const [method, path] of routes) {
      const answer = await call(core, other.token, method, path);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(JSON.stringify(answer.json), `${method} ${path}`).not.toContain(id === path ? '' : 'Demo Kitchen');
      // The owner reaches the same route (GET ones at least answer; the unknown event is its own 404).
      if (method === 'GET' && !path.endsWith('evt-1'))
        expect((await call(core, owner.token, method, path)).status, `owner ${path}`).toBe(200);
    }
    const takeover = await call(core, other.token, 'POST', '/providers/register', registration({ name: 'Mine Now' }));
    expect(takeover.status).toBe(409);
    expect((await call(core, ADMIN, 'GET', '/admin/providers/demo-kitchen')).json).toMatchObject({
      provider: expect.objectContaining({ name: 'Demo Kitchen' }),
    });
    const listed = await call(core, other.token, 'GET', '/account/providers');
    expect((listed.json['data'] as { slug: string }[]).map((p) => p.slug)).toEqual(['other-kitchen']);
    for (const [method, path] of [
      ['GET', '/admin/providers'],
      ['GET', '/admin/providers/demo-kitchen'],
      ['POST', '/admin/providers/demo-kitchen/review'],
      ['POST', '/admin/providers/demo-kitchen/reopen'],
      ['POST', '/admin/providers/demo-kitchen/rotate-webhook-secret'],
      ['GET', '/admin/accounts'],
      ['POST', '/admin/tokens'],
      ['GET', '/admin/logs/events'],
    ] as const)
      expect((await call(core, owner.token, method, path)).status, `${method} ${path}`).toBe(401);
  });

  it('while CHANGES_REQUESTED, any re-registration (a new name only) moves the provider to DRAFT', async () => {
    const dataDir = await scratchDir('accounts-changes');
    serve = await startCore(dataDir);
    const core = serve;
    const owner = await createAccount(core, 'Changes Ltd');
    await call(core, owner.token, 'POST', '/providers/register', registration());
    await call(core, owner.token, 'POST', '/providers/demo-kitchen/certify');
    expect((await call(core, owner.token, 'POST', '/providers/demo-kitchen/submit-review')).status).toBe(200);
    expect((await call(core, ADMIN, 'POST', '/admin/providers/demo-kitchen/review', REQUEST_CHANGES)).status).toBe(200);
    const renamed = await call(
      core,
      owner.token,
      'POST',
      '/providers/register',
      registration({ name: 'Demo Kitchen 2' }),
    );
    expect(renamed.status).toBe(200);
    expect(renamed.json['certificationRequired']).toBe(false);
    const detail = await call(core, ADMIN, 'GET', '/admin/providers/demo-kitchen');
    const p = detail.json['provider'] as { name: string; metadata: { reviewStatus: string } };
    expect(p.name).toBe('Demo Kitchen 2');
    expect(p.metadata.reviewStatus).toBe('DRAFT');
    // In DRAFT the same re-registration changes nothing about the state.
    await call(core, owner.token, 'POST', '/providers/register', registration({ name: 'Demo Kitchen 3' }));
    const again = await call(core, ADMIN, 'GET', '/admin/providers/demo-kitchen');
    expect((again.json['provider'] as { metadata: { reviewStatus: string } }).metadata.reviewStatus).toBe('DRAFT');
  });
});
